package dev.sidecarwait.tls;

import dev.sidecarwait.dns.Literals;
import java.net.InetAddress;
import java.util.Locale;

/**
 * Whether a certificate is for the host a target names, as RFC 6125 and Go's crypto/x509 decide: an IP address
 * against the IP subject alternative names; a host name against the DNS ones, case-insensitively, where a
 * wildcard stands for exactly one whole leftmost label ("*.prod.svc" matches "orders.prod.svc", not
 * "prod.svc" or "a.orders.prod.svc"). The subject's CN is not used (Go stopped in 1.15, browsers long before).
 * A certificate's name holding anything no DNS name holds (a NUL, a newline, a space, a byte past ASCII: what a
 * forged name is made of) matches nothing; '_' is allowed, as Go allows it.
 */
public final class ServerName {

    private ServerName() {
    }

    public static boolean matches(String host, PeerCertificate certificate) {
        InetAddress address = Literals.parse(host);
        if (address != null) {
            for (String ip : certificate.ipAddresses()) {
                if (address.equals(Literals.parse(ip))) {
                    return true;
                }
            }
            return false;
        }
        String name = trimDot(host.toLowerCase(Locale.ROOT));
        for (String pattern : certificate.dnsNames()) {
            if (isDnsName(pattern) && matches(name, trimDot(pattern.toLowerCase(Locale.ROOT)))) {
                return true;
            }
        }
        return false;
    }

    /** Letters, digits, '-', '_', '.' and '*' (a wildcard's), and nothing else, as a DNS name in a certificate is made. */
    static boolean isDnsName(String pattern) {
        if (pattern.isEmpty() || pattern.length() > 253) {
            return false;
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
                    || c == '*')) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(String name, String pattern) {
        if (!pattern.startsWith("*.")) {
            return !pattern.contains("*") && pattern.equals(name);
        }
        String rest = pattern.substring(1); // ".prod.svc"
        int firstDot = name.indexOf('.');
        return firstDot > 0 && rest.indexOf('*') < 0 && rest.indexOf('.', 1) > 0 // "*.svc" would match too much
                && name.substring(firstDot).equals(rest);
    }

    private static String trimDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }
}
