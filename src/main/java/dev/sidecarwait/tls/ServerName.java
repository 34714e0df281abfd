package dev.sidecarwait.tls;

import dev.sidecarwait.dns.Literals;
import java.net.InetAddress;
import java.util.Locale;

/**
 * Whether a certificate is for the host a target names, as RFC 6125 and Go's crypto/x509 decide: an IP address
 * against the IP subject alternative names; a host name against the DNS ones, case-insensitively, where a
 * wildcard stands for exactly one whole leftmost label ("*.prod.svc" matches "orders.prod.svc", not
 * "prod.svc" or "a.orders.prod.svc"). The subject's CN is not used (Go stopped in 1.15, browsers long before).
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
            if (matches(name, trimDot(pattern.toLowerCase(Locale.ROOT)))) {
                return true;
            }
        }
        return false;
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
