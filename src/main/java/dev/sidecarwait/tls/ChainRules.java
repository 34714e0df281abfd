package dev.sidecarwait.tls;

import java.util.List;
import java.util.Set;

/**
 * The rules both engines apply alike to every certificate of a verified path, on top of their own checks: one key
 * and signature policy (what the binary's Mbed TLS can use, so the jar takes no more), RFC 5280's rules a CA must keep
 * that a verifier can check without guessing, and the CAs' name constraints ({@link NameConstraints}). The words say
 * which certificate, by its CN, and what is wrong with it.
 */
final class ChainRules {

    private static final String RSA = "1.2.840.113549.1.1.1";
    private static final String EC = "1.2.840.10045.2.1";
    private static final String P256 = "1.2.840.10045.3.1.7";
    private static final String P384 = "1.3.132.0.34";
    private static final String RSA_PSS = "1.2.840.113549.1.1.10";
    private static final Set<String> SIGNATURES = Set.of("1.2.840.113549.1.1.11", "1.2.840.113549.1.1.12",
            "1.2.840.113549.1.1.13", "1.2.840.10045.4.3.2", "1.2.840.10045.4.3.3", "1.2.840.10045.4.3.4");
    private static final Set<String> PSS_HASHES = Set.of("2.16.840.1.101.3.4.2.1", "2.16.840.1.101.3.4.2.2",
            "2.16.840.1.101.3.4.2.3");
    /** SHA-1 and MD5 with RSA, DSA and ECDSA; MD2 with RSA. */
    private static final Set<String> WEAK = Set.of("1.2.840.113549.1.1.5", "1.2.840.113549.1.1.4", "1.2.840.113549.1.1.2",
            "1.2.840.10045.4.1", "1.2.840.10040.4.3", "1.3.14.3.2.29");
    /** The extensions either engine acts on, or that ask nothing of a verifier; a critical one of any other is refused. */
    private static final Set<String> KNOWN = Set.of(CertificateParts.BASIC_CONSTRAINTS, CertificateParts.KEY_USAGE,
            "2.5.29.37", CertificateParts.SUBJECT_ALT_NAME, CertificateParts.NAME_CONSTRAINTS,
            CertificateParts.SUBJECT_KEY_ID, CertificateParts.AUTHORITY_KEY_ID, "2.5.29.32", CertificateParts.POLICY_CONSTRAINTS,
            "2.5.29.33", "2.5.29.54", "2.5.29.31", "2.5.29.18", "2.5.29.46", CertificateParts.AUTHORITY_INFO_ACCESS,
            "1.3.6.1.5.5.7.1.11", "1.3.6.1.4.1.11129.2.4.2");

    private ChainRules() {
    }

    /**
     * The first rule {@code path} breaks (leaf first; its last certificate the trust anchor when {@code anchored}), in
     * words, or null. {@code explaining}: the engine refused the chain already and these rules look for the reason, so
     * path lengths are counted too, as RFC 5280 6.1.4 counts them (each engine enforces them itself).
     */
    static String refusal(List<CertificateParts> path, boolean anchored, boolean explaining) {
        for (int depth = 0; depth < path.size(); depth++) {
            String broken = refusal(path.get(depth), whom(path.get(depth), depth), anchored && depth == path.size() - 1);
            if (broken != null) {
                return broken;
            }
        }
        NameConstraints constraints = new NameConstraints();
        int longest = Integer.MAX_VALUE;
        for (int depth = path.size() - 1; depth >= 0; depth--) {
            CertificateParts certificate = path.get(depth);
            String broken;
            try {
                broken = certificate.selfIssued() && depth > 0 ? null : constraints.refusal(certificate, whom(certificate, depth));
            } catch (IllegalArgumentException e) {
                broken = whom(certificate, depth) + " has names this client cannot read (" + e.getMessage() + ")";
            }
            if (broken == null) {
                broken = constraints.add(certificate);
            }
            if (broken != null) {
                return broken;
            }
            if (explaining && depth > 0) {
                boolean anchor = anchored && depth == path.size() - 1;
                if (!anchor && !certificate.selfIssued() && longest-- <= 0) {
                    return "the chain is longer than a CA above '" + PeerCertificate.shown(certificate.commonName())
                            + "' allows (its path length constraint)";
                }
                longest = Math.min(longest, certificate.pathLength());
            }
        }
        return null;
    }

    /** A certificate of a path as a refusal names it: the server's own, or one of its CAs by CN. */
    private static String whom(CertificateParts certificate, int depth) {
        return depth == 0 ? "this certificate" : "its CA '" + PeerCertificate.shown(certificate.commonName()) + "'";
    }

    /**
     * The first rule one certificate ({@code who}, as a line names it) breaks; a trust anchor's signature on itself and
     * its serial number are not checked.
     */
    static String refusal(CertificateParts certificate, String who, boolean anchor) {
        try {
            String key = key(certificate);
            if (key != null) {
                return who + " has " + key;
            }
            String signature = anchor ? null : signature(certificate);
            if (signature != null) {
                return who + " is " + signature;
            }
            String extension = extensions(certificate, anchor);
            return extension == null ? null : who + " has " + extension;
        } catch (IllegalArgumentException e) {
            return who + " cannot be read (" + e.getMessage() + ")";
        }
    }

    /** The key policy: RSA of 2048 bits or more in whole bytes (Mbed TLS uses no other), EC on P-256 or P-384. */
    static String key(CertificateParts certificate) {
        if (certificate.keyAlgorithm().equals(RSA)) {
            int bits = certificate.rsaBits();
            return bits >= 2048 && bits % 8 == 0 ? null : "an RSA key of " + bits + " bits (this client takes RSA keys of "
                    + "2048 bits or more, in whole bytes)";
        }
        if (certificate.keyAlgorithm().equals(EC)) {
            Der curve = certificate.keyParameters();
            String name = curve == null || curve.tag() != Der.OID ? "" : curve.oid();
            return name.equals(P256) || name.equals(P384) ? null : "an EC key on a curve this client does not take "
                    + "(P-256 and P-384 are)";
        }
        return "a key of a type this client does not take (" + certificate.keyAlgorithm() + "; RSA and EC are)";
    }

    private static String signature(CertificateParts certificate) {
        String algorithm = certificate.signatureAlgorithm();
        if (WEAK.contains(algorithm)) {
            return TlsFailures.WEAK_HASH;
        }
        if (algorithm.equals(RSA_PSS)) {
            Der parameters = certificate.signatureParameters();
            List<Der> fields = parameters == null ? List.of() : parameters.children();
            Der hash = !fields.isEmpty() && fields.get(0).tag() == 0xa0 ? fields.get(0).child(0, Der.SEQUENCE) : null;
            // RSASSA-PSS's default hash is SHA-1
            return hash != null && PSS_HASHES.contains(hash.child(0, Der.OID).oid()) ? null : TlsFailures.WEAK_HASH;
        }
        return SIGNATURES.contains(algorithm) ? null : "signed with an algorithm this client does not take (" + algorithm
                + "; RSA, RSA-PSS and ECDSA with SHA-256 or better are)";
    }

    /** What RFC 5280 asks of a certificate's extensions and serial number that a verifier can check. */
    private static String extensions(CertificateParts certificate, boolean anchor) {
        for (var extension : certificate.extensions().entrySet()) {
            if (extension.getValue().critical() && !KNOWN.contains(extension.getKey())) {
                return "an extension marked critical that this client does not know (" + extension.getKey() + ")";
            }
        }
        byte[] serial = certificate.serial();
        // a trust anchor's serial number is no one's to check: nine roots of Debian's bundle have 0
        if (!anchor && (serial.length > 21 || serial.length == 21 && serial[0] != 0)) {
            return "a serial number longer than the 20 bytes RFC 5280 allows";
        }
        if (!anchor && zero(serial)) {
            return "a serial number of zero, which RFC 5280 forbids";
        }
        if (certificate.extension(CertificateParts.NAME_CONSTRAINTS) != null && !certificate.ca()) {
            return "name constraints but is no CA (RFC 5280 allows them in CAs only)";
        }
        if (certificate.keyUsage(5) && !certificate.ca()) {
            return "a key usage that signs certificates but is no CA (RFC 5280 4.2.1.9)";
        }
        CertificateParts.Extension aki = certificate.extension(CertificateParts.AUTHORITY_KEY_ID);
        if (aki != null) {
            List<Der> fields = aki.value().children();
            boolean keyId = !fields.isEmpty() && fields.get(0).tag() == 0x80;
            boolean issuer = false;
            boolean serialNumber = false;
            for (Der field : fields) {
                issuer |= field.tag() == 0xa1;
                serialNumber |= field.tag() == 0x82;
            }
            if (aki.critical() || !keyId || issuer != serialNumber) {
                return "an authority key identifier " + (aki.critical() ? "marked critical" : !keyId ? "without its key "
                        + "identifier" : "with an issuer and no serial number, or the reverse") + " (RFC 5280 4.2.1.1)";
            }
        }
        CertificateParts.Extension ski = certificate.extension(CertificateParts.SUBJECT_KEY_ID);
        if (ski != null && ski.critical()) {
            return "a subject key identifier marked critical (RFC 5280 4.2.1.2)";
        }
        if (anchor && aki != null && ski != null && certificate.selfIssued()
                && !java.util.Arrays.equals(aki.value().children().get(0).contents(), ski.value().contents())) {
            return "an authority key identifier that is not its own subject key identifier, though it is a root";
        }
        CertificateParts.Extension policy = certificate.extension(CertificateParts.POLICY_CONSTRAINTS);
        if (policy != null && !policy.critical()) {
            return "policy constraints not marked critical (RFC 5280 4.2.1.11)";
        }
        CertificateParts.Extension access = certificate.extension(CertificateParts.AUTHORITY_INFO_ACCESS);
        if (access != null && access.value().children().isEmpty()) {
            return "an authority information access extension with nothing in it (RFC 5280 4.2.2.1)";
        }
        CertificateParts.Extension names = certificate.extension(CertificateParts.SUBJECT_ALT_NAME);
        if (names != null && names.critical() != certificate.subjectName().children().isEmpty()) {
            return names.critical() ? "a subject and its alternative names marked critical, which RFC 5280 4.2.1.6 says a "
                    + "CA should not write and the Web PKI forbids" : "no subject and its alternative names not marked "
                    + "critical (RFC 5280 4.2.1.6)";
        }
        return null;
    }

    private static boolean zero(byte[] integer) {
        for (byte b : integer) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
