package dev.sidecarwait.tls;

/**
 * Mbed TLS's verify flags (x509.h's MBEDTLS_X509_BADCERT_*) as a finding, its reason in words for the failure line.
 * The name (BADCERT_CN_MISMATCH) is left out: the caller checks it apart (ServerName).
 */
final class MbedVerifyFlags {

    static final int EXPIRED = 0x01;
    static final int CN_MISMATCH = 0x04;
    static final int NOT_TRUSTED = 0x08;
    static final int FUTURE = 0x0200;
    static final int KEY_USAGE = 0x0800;
    static final int EXT_KEY_USAGE = 0x1000;
    static final int BAD_MD = 0x4000;
    static final int BAD_PK = 0x8000;
    static final int BAD_KEY = 0x010000;

    private MbedVerifyFlags() {
    }

    /** Null when nothing but the name is flagged; {@code peer} dates an expired or not yet valid chain. */
    static ChainFinding finding(int verifyResult, PeerFields.Read peer) {
        int flags = verifyResult & ~CN_MISMATCH;
        if (flags == 0) {
            return null;
        }
        // a hash or key refused makes the chain untrusted too: the refusal is the reason, so it is named first
        ChainProblem problem = (flags & (BAD_MD | BAD_PK | BAD_KEY)) != 0 ? ChainProblem.OTHER
                : (flags & NOT_TRUSTED) != 0 ? ChainProblem.UNTRUSTED
                : (flags & EXPIRED) != 0 ? ChainProblem.EXPIRED
                : (flags & FUTURE) != 0 ? ChainProblem.NOT_YET_VALID : ChainProblem.OTHER;
        return new ChainFinding(problem, problem == ChainProblem.OTHER ? otherProblem(flags) : null, peer == null ? null : peer.dated());
    }

    /** The flags beyond trust and validity, in words. */
    private static String otherProblem(int flags) {
        if ((flags & BAD_MD) != 0) {
            return TlsFailures.WEAK_HASH;
        }
        if ((flags & BAD_PK) != 0) {
            return "signed with a key type this client does not accept";
        }
        if ((flags & BAD_KEY) != 0) {
            return "its key is one this client does not accept (an RSA key under 2048 bits, or an EC curve other than P-256 or P-384)";
        }
        if ((flags & (KEY_USAGE | EXT_KEY_USAGE)) != 0) {
            return "its key usage does not allow a TLS server";
        }
        return "Mbed TLS verify flags 0x" + Integer.toHexString(flags);
    }
}
