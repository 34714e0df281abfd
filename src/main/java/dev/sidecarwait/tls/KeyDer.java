package dev.sidecarwait.tls;

import java.io.ByteArrayOutputStream;

/**
 * A private key's DER in the PKCS#8 form the JDK's KeyFactory reads: PKCS#1 RSA and SEC1 EC keys (what openssl and
 * cert-manager write as "RSA PRIVATE KEY" and "EC PRIVATE KEY") wrapped with their algorithm's identifier. Mbed TLS
 * reads all three forms itself.
 */
final class KeyDer {

    private static final byte[] RSA_ENCRYPTION = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] EC_PUBLIC_KEY = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final byte[] NULL = {0x05, 0x00};

    private KeyDer() {
    }

    static byte[] pkcs8(Identity.Key key) {
        return switch (key.form()) {
            case PKCS8 -> key.der();
            case PKCS1_RSA -> wrap(concat(RSA_ENCRYPTION, NULL), key.der());
            case SEC1_EC -> wrap(concat(EC_PUBLIC_KEY, curve(key.der())), key.der());
        };
    }

    /** PrivateKeyInfo: version 0, the algorithm, the key as an OCTET STRING. */
    private static byte[] wrap(byte[] algorithm, byte[] key) {
        return tlv(0x30, concat(new byte[] {0x02, 0x01, 0x00}, tlv(0x30, algorithm), tlv(0x04, key)));
    }

    /** The named curve's OID (with its tag and length) from a SEC1 ECPrivateKey's [0] parameters. */
    private static byte[] curve(byte[] sec1) {
        try {
            Der key = Der.read(sec1);
            if (key.tag() != Der.SEQUENCE) {
                throw new IllegalArgumentException("not a SEQUENCE");
            }
            for (Der field : key.children()) {
                if (field.tag() == 0xa0) {
                    return field.child(0, Der.OID).encoded();
                }
            }
        } catch (IllegalArgumentException notDer) {
            throw new IllegalArgumentException("its key is not valid DER");
        }
        throw new IllegalArgumentException("its EC key names no curve");
    }

    private static byte[] tlv(int tag, byte[] contents) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = contents.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
