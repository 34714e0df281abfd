package dev.sidecarwait.probe;

import dev.sidecarwait.dns.Literals;

/**
 * A URL's host and port, read as a resolver will use them, every refusal naming its fault: a name as DNS takes it
 * ('_' included, as Go and RFC 2181 allow), an internationalised name as its punycode ({@link Punycode}), a dotted-quad
 * IPv4 address, or an IPv6 address in brackets with an optional zone written %25.
 */
final class UrlHost {

    /** ASCII: a name, punycode for an internationalised one, or an address (IPv6 without brackets, zone after '%'). */
    final String host;
    /** -1 when the URL gives none. */
    final int port;

    private UrlHost(String host, int port) {
        this.host = host;
        this.port = port;
    }

    static UrlHost of(String authority) {
        String host;
        String port = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("no ']' after the IPv6 address");
            }
            host = ipv6(authority.substring(1, close));
            String after = authority.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new IllegalArgumentException("'" + after + "' after the IPv6 address; a port is written [ADDRESS]:PORT");
            }
            port = after.isEmpty() ? null : after.substring(1);
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            if (colon >= 0) {
                port = authority.substring(colon + 1);
                if (port.indexOf(':') >= 0) {
                    throw new IllegalArgumentException(authority.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")
                            ? "an IPv6 address is written in brackets: http://[::1]:15021/"
                            : "more than one port after the host ('" + port + "')");
                }
            }
            host = name(host);
        }
        return new UrlHost(host, port == null || port.isEmpty() ? -1 : port(port));
    }

    private static int port(String text) {
        if (!text.matches("[0-9]{1,5}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > 65535) {
            throw new IllegalArgumentException("port '" + text + "' is not a number from 1 to 65535");
        }
        return Integer.parseInt(text);
    }

    private static String ipv6(String inside) {
        int percent = inside.indexOf('%');
        String address = percent < 0 ? inside : inside.substring(0, percent);
        if (percent >= 0 && !inside.startsWith("%25", percent) || inside.endsWith("%25")) {
            throw new IllegalArgumentException("an IPv6 zone is written after %25: [fe80::1%25eth0]");
        }
        String zone = percent < 0 ? "" : UrlParts.decoded(inside.substring(percent + 3));
        if (address.indexOf(':') < 0 || Literals.parse(address) == null || !zone.matches("[0-9A-Za-z_.-]*")) {
            throw new IllegalArgumentException("'" + inside + "' is not an IPv6 address");
        }
        return zone.isEmpty() ? address : address + "%" + zone;
    }

    private static String name(String host) {
        if (host.isEmpty()) {
            throw new IllegalArgumentException("no host");
        }
        if (host.indexOf('%') >= 0) {
            throw new IllegalArgumentException("the host '" + host + "' is percent-encoded; write it as it is");
        }
        for (char c : host.toCharArray()) {
            if (c < 0x80 && !(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
                throw new IllegalArgumentException("the host '" + host + "' holds '" + c + "', which no host name holds");
            }
        }
        if (host.length() > 253) {
            throw new IllegalArgumentException("the host '" + host + "' is longer than DNS's 253 characters");
        }
        String ascii = Punycode.isAscii(host) ? host : Punycode.toAscii(host);
        checkLabels(host, ascii);
        return ascii;
    }

    private static void checkLabels(String host, String ascii) {
        String[] labels = (ascii.endsWith(".") ? ascii.substring(0, ascii.length() - 1) : ascii).split("\\.", -1);
        boolean numeric = true;
        for (String label : labels) {
            if (label.isEmpty()) {
                throw new IllegalArgumentException("the host '" + host + "' has an empty label ('..', or a dot first)");
            }
            if (label.length() > 63) {
                throw new IllegalArgumentException("the host '" + host + "' has a label longer than DNS's 63 characters");
            }
            if (label.startsWith("-") || label.endsWith("-")) {
                throw new IllegalArgumentException("the host '" + host + "' has a label that starts or ends with '-', "
                        + "which no DNS name has");
            }
            numeric &= label.matches("[0-9]+|0[xX][0-9A-Fa-f]*");
        }
        if (ascii.length() > 253) {
            throw new IllegalArgumentException("the host '" + host + "' is longer than DNS's 253 characters");
        }
        if (numeric && Literals.parse(ascii) == null) {
            throw new IllegalArgumentException("the host '" + host + "' is an IPv4 address in a form resolvers do not "
                    + "take; write four decimal numbers (127.0.0.1)");
        }
    }
}
