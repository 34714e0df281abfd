package dev.sidecarwait.tls;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An X.509 certificate (RFC 5280 4.1) read from its DER for the rules both engines apply alike ({@link ChainRules},
 * {@link NameConstraints}): its names, its key, how it is signed and its extensions. Read here rather than by either
 * engine so that the same bytes get the same answer on the JVM and in the binary. Throws IllegalArgumentException
 * for bytes that are not such a certificate.
 */
final class CertificateParts {

    static final String BASIC_CONSTRAINTS = "2.5.29.19";
    static final String KEY_USAGE = "2.5.29.15";
    static final String SUBJECT_ALT_NAME = "2.5.29.17";
    static final String NAME_CONSTRAINTS = "2.5.29.30";
    static final String SUBJECT_KEY_ID = "2.5.29.14";
    static final String AUTHORITY_KEY_ID = "2.5.29.35";
    static final String POLICY_CONSTRAINTS = "2.5.29.36";
    static final String AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
    /** id-at-commonName (2.5.4.3), as its DER contents. */
    private static final byte[] COMMON_NAME = {0x55, 0x04, 0x03};

    /**
     * An extension: whether it is critical, and its OCTET STRING, read as DER only when asked (an unknown one need not
     * be). A plain class: a record's generated methods would cost the binary code nothing here uses.
     */
    static final class Extension {

        private final boolean critical;
        private final Der octets;
        private Der value;

        Extension(boolean critical, Der octets) {
            this.critical = critical;
            this.octets = octets;
        }

        boolean critical() {
            return critical;
        }

        /** What the OCTET STRING holds, read once. */
        Der value() {
            if (value == null) {
                value = Der.read(octets.contents());
            }
            return value;
        }
    }

    private final byte[] der;
    private final byte[] subject;
    private final byte[] issuer;
    private final Der subjectName;
    private final byte[] serial;
    private final String signatureAlgorithm;
    private final Der signatureParameters;
    private final String keyAlgorithm;
    private final Der keyParameters;
    private final Der key;
    private final Map<String, Extension> extensions = new LinkedHashMap<>();
    private final String commonName;

    CertificateParts(byte[] der) {
        this.der = der;
        Der certificate = Der.read(der);
        Der tbs = certificate.child(0, Der.SEQUENCE);
        Der algorithm = certificate.child(1, Der.SEQUENCE);
        signatureAlgorithm = algorithm.child(0, Der.OID).oid();
        signatureParameters = algorithm.children().size() > 1 ? algorithm.children().get(1) : null;
        List<Der> fields = tbs.children();
        int at = !fields.isEmpty() && fields.get(0).tag() == 0xa0 ? 1 : 0;
        if (fields.size() < at + 6) {
            throw new IllegalArgumentException("a TBSCertificate cut short");
        }
        serial = expect(fields.get(at), Der.INTEGER).contents();
        issuer = expect(fields.get(at + 2), Der.SEQUENCE).encoded();
        subjectName = expect(fields.get(at + 4), Der.SEQUENCE);
        subject = subjectName.encoded();
        Der publicKey = expect(fields.get(at + 5), Der.SEQUENCE);
        Der keyId = publicKey.child(0, Der.SEQUENCE);
        keyAlgorithm = keyId.child(0, Der.OID).oid();
        keyParameters = keyId.children().size() > 1 ? keyId.children().get(1) : null;
        key = publicKey.child(1, Der.BIT_STRING);
        List<Der> names = subjectAttributes(COMMON_NAME);
        commonName = names.isEmpty() ? "" : new String(names.get(0).contents(), names.get(0).tag() == 0x0c
                ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        for (Der field : fields.subList(at + 6, fields.size())) {
            if (field.tag() == 0xa3) {
                for (Der extension : field.child(0, Der.SEQUENCE).children()) {
                    List<Der> parts = expect(extension, Der.SEQUENCE).children();
                    if (parts.size() < 2 || parts.size() > 3) {
                        throw new IllegalArgumentException("an extension of " + parts.size() + " parts");
                    }
                    boolean critical = parts.size() == 3 && expect(parts.get(1), Der.BOOLEAN).contentsEqual(new byte[] {(byte) 0xff});
                    Der octets = expect(parts.get(parts.size() - 1), Der.OCTET_STRING);
                    String oid = expect(parts.get(0), Der.OID).oid();
                    if (extensions.put(oid, new Extension(critical, octets)) != null) {
                        throw new IllegalArgumentException("an extension twice");
                    }
                }
            }
        }
    }

    private static Der expect(Der element, int tag) {
        if (element.tag() != tag) {
            throw new IllegalArgumentException("a DER element of another kind than X.509's");
        }
        return element;
    }

    byte[] der() {
        return der;
    }

    boolean sameAs(byte[] other) {
        return java.util.Arrays.equals(der, other);
    }

    /** Its subject and issuer are the same name (RFC 5280's self-issued), compared as encoded. */
    boolean selfIssued() {
        return java.util.Arrays.equals(subject, issuer);
    }

    boolean issuedBy(CertificateParts ca) {
        return java.util.Arrays.equals(issuer, ca.subject);
    }

    Der subjectName() {
        return subjectName;
    }

    byte[] serial() {
        return serial;
    }

    String signatureAlgorithm() {
        return signatureAlgorithm;
    }

    Der signatureParameters() {
        return signatureParameters;
    }

    String keyAlgorithm() {
        return keyAlgorithm;
    }

    Der keyParameters() {
        return keyParameters;
    }

    /** An RSA key's modulus in bits, or 0 when the key is not RSA's form. */
    int rsaBits() {
        byte[] bits = key.contents();
        if (bits.length < 2 || bits[0] != 0) {
            return 0;
        }
        Der rsa = Der.read(java.util.Arrays.copyOfRange(bits, 1, bits.length));
        byte[] modulus = rsa.child(0, Der.INTEGER).contents();
        int first = 0;
        while (first < modulus.length && modulus[first] == 0) {
            first++;
        }
        return first == modulus.length ? 0 : (modulus.length - first - 1) * 8 + 32 - Integer.numberOfLeadingZeros(modulus[first] & 0xff);
    }

    Map<String, Extension> extensions() {
        return extensions;
    }

    Extension extension(String oid) {
        return extensions.get(oid);
    }

    /** basicConstraints' cA. */
    boolean ca() {
        Extension basic = extension(BASIC_CONSTRAINTS);
        if (basic == null) {
            return false;
        }
        List<Der> fields = basic.value().children();
        return !fields.isEmpty() && fields.get(0).tag() == Der.BOOLEAN && fields.get(0).contentsEqual(new byte[] {(byte) 0xff});
    }

    /** basicConstraints' pathLenConstraint, or Integer.MAX_VALUE without one. */
    int pathLength() {
        Extension basic = extension(BASIC_CONSTRAINTS);
        List<Der> fields = basic == null ? List.of() : basic.value().children();
        Der last = fields.isEmpty() ? null : fields.get(fields.size() - 1);
        if (last == null || last.tag() != Der.INTEGER) {
            return Integer.MAX_VALUE;
        }
        byte[] length = last.contents();
        if (length.length == 0 || length[0] < 0) {
            return 0;
        }
        if (length.length > 3) {
            return Integer.MAX_VALUE;
        }
        int value = 0;
        for (byte b : length) {
            value = (value << 8) | (b & 0xff);
        }
        return value;
    }

    /** keyUsage's bit {@code bit} (0 digitalSignature, 5 keyCertSign), or false without the extension. */
    boolean keyUsage(int bit) {
        Extension usage = extension(KEY_USAGE);
        if (usage == null) {
            return false;
        }
        byte[] bits = usage.value().contents();
        int index = 1 + bit / 8;
        return index < bits.length && (bits[index] & (0x80 >> (bit % 8))) != 0;
    }

    /** The subject alternative names as GeneralName elements (tag and contents), none without the extension. */
    List<Der> alternativeNames() {
        Extension names = extension(SUBJECT_ALT_NAME);
        return names == null ? List.of() : names.value().children();
    }

    /** The subject's first common name (the peer's text: escaped where a line shows it), or "". */
    String commonName() {
        return commonName;
    }

    /** The subject's attributes of one type (an OID's DER contents), as their elements. */
    List<Der> subjectAttributes(byte[] oid) {
        List<Der> found = new ArrayList<>();
        for (Der rdn : subjectName.children()) {
            for (Der attribute : rdn.children()) {
                List<Der> pair = attribute.children();
                if (pair.size() == 2 && pair.get(0).isOid(oid)) {
                    found.add(pair.get(1));
                }
            }
        }
        return found;
    }
}
