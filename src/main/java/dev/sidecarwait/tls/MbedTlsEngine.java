package dev.sidecarwait.tls;

import org.graalvm.nativeimage.PinnedObject;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.nativeimage.c.type.CTypeConversion;
import org.graalvm.word.PointerBase;

/** One connection through Mbed TLS: each call holds the client's lock (see MbedTls). */
final class MbedTlsEngine implements TlsEngine {

    private static final int WANT_READ = -0x6900;
    private static final int FATAL_ALERT = -0x7780;
    /** What the library says when a record or a handshake message will not fit its 16 KiB input buffer ("more data than fits"). */
    private static final int BAD_INPUT_DATA = -0x7100;
    private static final int INVALID_RECORD = -0x7200;
    /** X509_UNKNOWN_SIG_ALG: a certificate signed over SHA-1 (not built in) or an algorithm not built in. */
    private static final int UNKNOWN_SIGNATURE = 0x2600;
    /** PK_INVALID_PUBKEY: a key refused as it is read (native/tls/rsa-public-exponent.patch refuses huge exponents). */
    private static final int INVALID_PUBLIC_KEY = 0x3B00;
    /** swtls_handshake's word that the server's certificate is in and checked: judge it before going on. */
    private static final int JUDGE = 1;
    /** The alert that ends a handshake whose certificate this side refused. */
    private static final int BAD_CERTIFICATE = 42;
    /** What the certificate's fields may take at most: far more than any certificate the engine accepts. */
    private static final int MOST_PEER_BYTES = 1 << 20;

    private final PointerBase connection;
    private final Object lock;
    private final CertificateJudge judge;
    private boolean closed;

    MbedTlsEngine(PointerBase connection, Object lock, CertificateJudge judge) {
        this.connection = connection;
        this.lock = lock;
        this.judge = judge;
    }

    @Override
    public int handshake() throws TlsException {
        synchronized (lock) {
            while (true) {
                int r = MbedTlsCalls.swtls_handshake(connection);
                if (r != JUDGE) {
                    return r == WANT_READ ? NEEDS_INPUT : check(r);
                }
                PeerFields.Read peer = peer();
                String refusal = judge == null ? null
                        : peer == null ? "the server's certificate could not be read" : judge.refusal(peer.certificate(), finding(peer));
                if (refusal != null) {
                    MbedTlsCalls.swtls_refuse(connection, BAD_CERTIFICATE);
                    throw TlsException.refused(refusal);
                }
            }
        }
    }

    @Override
    public void feed(byte[] bytes, int length) throws TlsException {
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(bytes)) {
                check(MbedTlsCalls.swtls_feed(connection, pinned.addressOfArrayElement(0), length));
            }
        }
    }

    @Override
    public int take(byte[] into) {
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(into)) {
                return MbedTlsCalls.swtls_take(connection, pinned.addressOfArrayElement(0), into.length);
            }
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws TlsException {
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(bytes)) {
                check(MbedTlsCalls.swtls_write(connection, pinned.addressOfArrayElement(offset), length));
            }
        }
    }

    @Override
    public int read(byte[] into) throws TlsException {
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(into)) {
                int r = MbedTlsCalls.swtls_read(connection, pinned.addressOfArrayElement(0), into.length);
                return r == WANT_READ ? NEEDS_INPUT : r == 0 ? -1 : check(r);
            }
        }
    }

    /**
     * Only an alert received ends as the server's alert: an error of this side's never reads as one. The limits a
     * server's bytes can meet are named in words (Mbed TLS's own say "bad input parameters" for the first).
     */
    private int check(int r) throws TlsException {
        if (r >= 0) {
            return r;
        }
        String words = switch (r) {
            case BAD_INPUT_DATA -> "a record or handshake message larger than this client takes (16 KiB: a certificate chain that long?)";
            case INVALID_RECORD -> "a record this client cannot read (longer than TLS's 16 KiB, or malformed)";
            default -> switch (-r & 0xff80) { // the high-level module's part of a code (mbedtls/error.h)
                case UNKNOWN_SIGNATURE -> "a certificate of the server's chain is " + TlsFailures.WEAK_HASH
                        + ", or with an algorithm this client does not implement";
                case INVALID_PUBLIC_KEY -> "a certificate of the server's chain holds a key this client refuses (an RSA "
                        + "public exponent over 32 bits, or a key it cannot read)";
                default -> MbedTls.error(r);
            };
        };
        throw new TlsException(r == FATAL_ALERT ? MbedTlsCalls.swtls_alert(connection) : -1, words);
    }

    @Override
    public Handshaken result() {
        synchronized (lock) {
            PeerFields.Read peer = peer();
            CCharPointer alpn = MbedTlsCalls.swtls_alpn(connection);
            return new Handshaken(CTypeConversion.toJavaString(MbedTlsCalls.swtls_version(connection)), // "TLSv1.3", as the JDK's
                    alpn.isNull() ? null : CTypeConversion.toJavaString(alpn), peer == null ? null : peer.certificate(),
                    judge == null ? null : finding(peer), MbedTlsCalls.swtls_asked_for_certificate(connection) != 0);
        }
    }

    /** Mbed TLS's verify flags (x509.h's MBEDTLS_X509_BADCERT_*) as a finding; the name is checked apart (ServerName). */
    private ChainFinding finding(PeerFields.Read peer) {
        int flags = MbedTlsCalls.swtls_verify_result(connection) & ~0x04;
        if (flags == 0) {
            return null;
        }
        // a hash or key refused makes the chain untrusted too: the refusal is the reason, so it is named first
        ChainProblem problem = (flags & (0x4000 | 0x8000 | 0x010000)) != 0 ? ChainProblem.OTHER
                : (flags & 0x08) != 0 ? ChainProblem.UNTRUSTED
                : (flags & 0x01) != 0 ? ChainProblem.EXPIRED
                : (flags & 0x0200) != 0 ? ChainProblem.NOT_YET_VALID : ChainProblem.OTHER;
        return new ChainFinding(problem, problem == ChainProblem.OTHER ? otherProblem(flags) : null, peer == null ? null : peer.dated());
    }

    /** Mbed TLS's verify flags beyond trust and validity, in words. */
    private static String otherProblem(int flags) {
        if ((flags & 0x4000) != 0) {
            return TlsFailures.WEAK_HASH;
        }
        if ((flags & 0x8000) != 0) {
            return "signed with a key type this client does not accept";
        }
        if ((flags & 0x010000) != 0) {
            return "its key is one this client does not accept (an RSA key under 2048 bits, or an EC curve other than P-256 or P-384)";
        }
        if ((flags & (0x0800 | 0x1000)) != 0) {
            return "its key usage does not allow a TLS server";
        }
        if ((flags & 0x0100) != 0) { // set by swtls.c alone, for a CA's name constraints
            return "a CA in the chain limits its names (name constraints), which this client cannot check: refused";
        }
        return "Mbed TLS verify flags 0x" + Integer.toHexString(flags);
    }

    /** The server's certificate, as swtls_peer's fields; null if there is none or they cannot be read. */
    private PeerFields.Read peer() {
        byte[] fields = new byte[8192];
        while (true) {
            int n;
            try (PinnedObject pinned = PinnedObject.create(fields)) {
                n = MbedTlsCalls.swtls_peer(connection, pinned.addressOfArrayElement(0), fields.length);
            }
            if (n < 0 || n > MOST_PEER_BYTES) {
                return null;
            }
            if (n <= fields.length) {
                try {
                    return PeerFields.read(fields, n);
                } catch (IllegalArgumentException unreadable) {
                    return null;
                }
            }
            fields = new byte[n];
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (!closed) {
                MbedTlsCalls.swtls_conn_free(connection);
                closed = true;
            }
        }
    }
}
