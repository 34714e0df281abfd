package dev.sidecarwait.dns;

import dev.sidecarwait.sockets.Ipv6Text;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** IP address literals, strictly: a dotted quad, or IPv6 (with a zone); anything else is a name. Never asks DNS. */
public final class Literals {

    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(%[0-9A-Za-z_.-]+)?");

    private Literals() {
    }

    /** An address as people write it: IPv6 in RFC 5952's short form ("fd00::12", not "fd00:0:0:0:0:0:0:12"). */
    public static String text(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != 16) {
            return address.getHostAddress();
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        String host = address.getHostAddress();
        return Ipv6Text.of(groups) + (host.contains("%") ? host.substring(host.indexOf('%')) : "");
    }

    /** The address written in {@code text}, or null when it is not an IP literal. */
    public static InetAddress parse(String text) {
        if (text.indexOf(':') >= 0) {
            if (!IPV6.matcher(text).matches()) {
                return null;
            }
            try {
                return InetAddress.getByName(text); // a literal with ':' is parsed, never looked up
            } catch (UnknownHostException | SecurityException notALiteral) {
                return null;
            }
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (!isDecimalOctet(parts[i])) {
                return null;
            }
            bytes[i] = (byte) Integer.parseInt(parts[i]);
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            return null; // four bytes are always an address
        }
    }

    /** One to three ASCII digits, at most 255 (a regular expression here was compiled at every probe). */
    private static boolean isDecimalOctet(String part) {
        if (part.isEmpty() || part.length() > 3) {
            return false;
        }
        for (int i = 0; i < part.length(); i++) {
            if (part.charAt(i) < '0' || part.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(part) <= 255;
    }
}
