package dev.sidecarwait.tls;

import java.util.List;
import java.util.Locale;

/**
 * Whether a name lies within a name constraint's subtree (RFC 5280 4.2.1.10), for the forms {@link NameConstraints}
 * checks: a DNS name under a domain (a leading period: its subdomains alone, as OpenSSL and Go read it), an IP address
 * in a network (address and mask), a directory name under another (RDN by RDN, as encoded).
 */
final class Subtrees {

    /** The GeneralName tags of the forms checked. */
    static final int DNS = 0x82;
    static final int IP = 0x87;
    static final int DIRECTORY = 0xa4;

    private Subtrees() {
    }

    /**
     * Whether {@code name} (of {@code form}) lies within {@code base}'s subtree; for an excluded subtree ({@code all}
     * false) a wildcard lies within it as soon as one name it matches does.
     */
    static boolean within(Der name, Der base, int form, boolean all) {
        return switch (form) {
            case DNS -> dnsWithin(name.latin1().toLowerCase(Locale.ROOT), base.latin1().toLowerCase(Locale.ROOT), all);
            case IP -> ipWithin(name.contents(), base.contents());
            default -> directoryWithin(name, base);
        };
    }

    static boolean dnsWithin(String name, String base, boolean all) {
        if (base.isEmpty()) {
            return true;
        }
        boolean inside = base.startsWith(".") ? name.endsWith(base) && name.length() > base.length()
                : name.equals(base) || name.endsWith("." + base);
        if (inside || all || !name.startsWith("*.")) {
            return inside;
        }
        // an excluded name the wildcard can match: one label, then what follows the wildcard
        String rest = name.substring(1);
        int dot = base.indexOf('.');
        return dot > 0 && base.substring(dot).equals(rest);
    }

    private static boolean ipWithin(byte[] address, byte[] base) {
        if (base.length != 2 * address.length) {
            return false;
        }
        for (int i = 0; i < address.length; i++) {
            int mask = base[address.length + i] & 0xff;
            if ((address[i] & mask) != (base[i] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** A directory name within another: the base's RDNs begin the name's, byte for byte. */
    private static boolean directoryWithin(Der name, Der base) {
        List<Der> baseRdns = rdns(base);
        List<Der> rdns = rdns(name);
        if (baseRdns.size() > rdns.size()) {
            return false;
        }
        for (int i = 0; i < baseRdns.size(); i++) {
            if (!java.util.Arrays.equals(baseRdns.get(i).encoded(), rdns.get(i).encoded())) {
                return false;
            }
        }
        return true;
    }

    /** A Name's RDNs: a subject's own, or a directoryName's, which holds its Name. */
    private static List<Der> rdns(Der name) {
        Der inner = name.tag() == DIRECTORY ? name.child(0, Der.SEQUENCE) : name;
        return inner.children();
    }
}
