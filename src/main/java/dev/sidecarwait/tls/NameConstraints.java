package dev.sidecarwait.tls;

import java.util.ArrayList;
import java.util.List;

/**
 * The name constraints of a path's CAs (RFC 5280 4.2.1.10 and 6.1.3 b, c), the trust anchor's included, gathered from
 * the top of the path down: each certificate below a CA must have every name of a form the CA constrains within one of
 * its permitted subtrees of that form and within none of its excluded ones. DNS names, IP addresses and directory
 * names (the subject, compared RDN by RDN as encoded) are checked; a wildcard DNS name counts as every name it can
 * match. A name of another form (email, URI, otherName...) under a CA that constrains that form is refused: this
 * client cannot check it, so it never passes unchecked. What is refused is said in words, naming the CA.
 */
final class NameConstraints {

    private static final int OTHER_NAME = 0xa0;
    private static final int EMAIL = 0x81;
    private static final int DNS = Subtrees.DNS;
    private static final int DIRECTORY = Subtrees.DIRECTORY;
    private static final int URI = 0x86;
    private static final int IP = Subtrees.IP;
    /** PKCS #9's emailAddress (1.2.840.113549.1.9.1), as its DER contents. */
    private static final byte[] EMAIL_ATTRIBUTE = {0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x09, 0x01};

    /** One CA's constraints: its name as shown, and its subtrees' base names. */
    private static final class Constrained {

        private final String ca;
        private final List<Der> permitted;
        private final List<Der> excluded;

        Constrained(String ca, List<Der> permitted, List<Der> excluded) {
            this.ca = ca;
            this.permitted = permitted;
            this.excluded = excluded;
        }

        String ca() {
            return ca;
        }

        List<Der> permitted() {
            return permitted;
        }

        List<Der> excluded() {
            return excluded;
        }
    }

    /** What one certificate's names may cost against the constraints above it, as OpenSSL's NAME_CHECK_MAX. */
    private static final long MOST_COMPARISONS = 1 << 20;

    private final List<Constrained> above = new ArrayList<>();

    /**
     * Adds a CA's constraints, for the certificates below it; the refusal when they cannot be read or are ones this
     * client must not guess at (no subtree at all, a minimum or maximum: RFC 5280 says neither is used), else null.
     */
    String add(CertificateParts ca) {
        CertificateParts.Extension extension = ca.extension(CertificateParts.NAME_CONSTRAINTS);
        if (extension == null) {
            return null;
        }
        String who = "CA '" + PeerCertificate.shown(ca.commonName()) + "'";
        List<Der> permitted = new ArrayList<>();
        List<Der> excluded = new ArrayList<>();
        try {
            for (Der part : extension.value().children()) {
                List<Der> into = part.tag() == 0xa0 ? permitted : part.tag() == 0xa1 ? excluded : null;
                if (into == null || part.children().isEmpty()) {
                    return who + " has name constraints with an empty or unknown part, which RFC 5280 forbids";
                }
                for (Der subtree : part.children()) {
                    List<Der> fields = subtree.children();
                    if (subtree.tag() != Der.SEQUENCE || fields.size() != 1) {
                        return who + " has name constraints with a minimum or maximum, which RFC 5280 forbids";
                    }
                    into.add(fields.get(0));
                }
            }
        } catch (IllegalArgumentException e) {
            return who + " has name constraints this client cannot read";
        }
        if (permitted.isEmpty() && excluded.isEmpty()) {
            return who + " has name constraints with no subtree, which RFC 5280 forbids";
        }
        above.add(new Constrained(who, permitted, excluded));
        return null;
    }

    /** Why a certificate below the CAs added so far ({@code who}, as a line names it) breaks their constraints, or null. */
    String refusal(CertificateParts certificate, String who) {
        if (above.isEmpty()) {
            return null;
        }
        List<Der> names = new ArrayList<>(certificate.alternativeNames());
        long attributes = 0;
        for (Der rdn : certificate.subjectName().children()) {
            attributes += rdn.children().size();
        }
        long subtrees = 0;
        for (Constrained ca : above) {
            subtrees += ca.permitted().size() + ca.excluded().size();
        }
        if ((names.size() + attributes) * subtrees > MOST_COMPARISONS) {
            return who + " has " + (names.size() + attributes) + " names under " + subtrees + " name constraints: more "
                    + "than this client compares (2^20 pairs, as OpenSSL)";
        }
        for (Der name : names) {
            String malformed = malformed(name);
            if (malformed != null) {
                return who + " has " + malformed + ", under a CA with name constraints";
            }
        }
        if (!certificate.subjectName().children().isEmpty()) {
            names.add(certificate.subjectName());
        }
        List<Der> emails = certificate.subjectAttributes(EMAIL_ATTRIBUTE);
        if (!emails.isEmpty()) {
            names.add(emails.get(0));
        }
        for (Constrained ca : above) {
            for (Der name : names) {
                int form = form(name);
                if (!constrains(ca, form)) {
                    continue;
                }
                if (form != DNS && form != IP && form != DIRECTORY) {
                    return who + " has a name of a form " + ca.ca() + " constrains that this client cannot check ("
                            + formName(form) + ")";
                }
                boolean permitted = !has(ca.permitted(), form);
                for (Der base : ca.permitted()) {
                    permitted |= base.tag() == form && Subtrees.within(name, base, form, true);
                }
                if (!permitted) {
                    return named(name, form, who) + " is outside the names " + ca.ca() + " permits (name constraints)";
                }
                for (Der base : ca.excluded()) {
                    if (base.tag() == form && Subtrees.within(name, base, form, false)) {
                        return named(name, form, who) + " is among the names " + ca.ca() + " excludes (name constraints)";
                    }
                }
            }
        }
        return null;
    }

    private static boolean constrains(Constrained ca, int form) {
        return has(ca.permitted(), form) || has(ca.excluded(), form);
    }

    private static boolean has(List<Der> bases, int form) {
        for (Der base : bases) {
            if (base.tag() == form) {
                return true;
            }
        }
        return false;
    }

    /** A name's form: its GeneralName tag; the subject stands for a directoryName, its emailAddress for an email. */
    private static int form(Der name) {
        return switch (name.tag()) {
            case Der.SEQUENCE -> DIRECTORY;
            case 0x16 -> EMAIL;
            default -> name.tag();
        };
    }

    /** A DNS or IP name that is not one (a leading dot, an empty label, a network for an address), or null. */
    private static String malformed(Der name) {
        if (name.tag() == IP && name.length() != 4 && name.length() != 16) {
            return "an IP address of " + name.length() + " bytes";
        }
        if (name.tag() != DNS) {
            return null;
        }
        String dns = name.latin1();
        String labels = dns.startsWith("*.") ? dns.substring(2) : dns;
        if (labels.isEmpty() || labels.startsWith(".") || labels.endsWith(".") || labels.contains("..") || labels.contains("*")) {
            return "a DNS name that is not one ('" + PeerCertificate.shown(dns) + "')";
        }
        return null;
    }

    /** A name as a refusal names it: "the name DNS:db.example.com of this certificate", or "the subject of ...". */
    private static String named(Der name, int form, String who) {
        return switch (form) {
            case DNS -> "the name DNS:" + PeerCertificate.shown(name.latin1()) + " of " + who;
            case IP -> "the name IP:" + dev.sidecarwait.dns.Literals.text(ipAddress(name.contents())) + " of " + who;
            default -> (name.tag() == DIRECTORY ? "a directory name" : "the subject") + " of " + who;
        };
    }

    private static java.net.InetAddress ipAddress(byte[] bytes) {
        try {
            return java.net.InetAddress.getByAddress(bytes);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String formName(int form) {
        return switch (form) {
            case OTHER_NAME -> "otherName";
            case EMAIL -> "email";
            case URI -> "URI";
            default -> "GeneralName tag " + form;
        };
    }
}
