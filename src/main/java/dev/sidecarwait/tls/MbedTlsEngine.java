package dev.sidecarwait.tls;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
    /** The X.509 module's codes: a certificate the library could not read. */
    private static final int X509 = 0x2000;
    /** PK_INVALID_PUBKEY: a key refused as it is read (native/tls/rsa-public-exponent.patch refuses huge exponents). */
    private static final int INVALID_PUBLIC_KEY = 0x3B00;
    /** swtls_handshake's word that the server's certificate is in and checked: judge it before going on. */
    private static final int JUDGE = 1;
    /** The alert that ends a handshake whose certificate this side refused. */
    private static final int BAD_CERTIFICATE = 42;
    /** What the certificate's fields may take at most: far more than any certificate the engine accepts. */
    private static final int MOST_PEER_BYTES = 1 << 20;

    /** swtls_certificate's two lists: the path the library verified, and what the server sent. */
    private static final int VERIFIED = 0;
    private static final int SENT = 1;
    /** swtls_certificate's word that the path was longer than it keeps. */
    private static final int TOO_LONG = -2;

    private final PointerBase connection;
    private final Object lock;
    private final CertificateJudge judge;
    private final List<byte[]> anchors;
    private boolean closed;

    MbedTlsEngine(PointerBase connection, Object lock, CertificateJudge judge, List<byte[]> anchors) {
        this.connection = connection;
        this.lock = lock;
        this.judge = judge;
        this.anchors = anchors;
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
                List<byte[]> path = certificates(VERIFIED);
                String refusal = judge == null ? null
                        : peer == null ? "the server's certificate could not be read"
                        : path == null ? TlsFailures.rejected(peer.certificate().subject(), "a path longer than this client checks")
                        : judge.refusal(peer.certificate(), finding(peer), new VerifiedChain(path, certificates(SENT), anchors));
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
        Objects.checkFromIndexSize(offset, length, bytes.length); // the library reads the whole range through a pointer
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(bytes)) {
                check(MbedTlsCalls.swtls_write(connection, pinned.addressOfArrayElement(offset), length));
            }
        }
    }

    @Override
    public int read(byte[] into, int offset, int length) throws TlsException {
        Objects.checkFromIndexSize(offset, length, into.length);
        synchronized (lock) {
            try (PinnedObject pinned = PinnedObject.create(into)) {
                int r = MbedTlsCalls.swtls_read(connection, pinned.addressOfArrayElement(offset), length);
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
            default -> (-r & 0xf000) == X509 ? unreadableCertificate() : switch (-r & 0xff80) { // mbedtls/error.h's high-level part
                case UNKNOWN_SIGNATURE -> unreadableCertificate();
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

    /**
     * The server's own certificate could not be read by the library (signed over SHA-1, which it is built without; an
     * extension it does not know, marked critical): that ends the handshake (native/tls/server-certificate-first.patch),
     * and the certificate, read from the message, is judged as the JVM judges it, in the same words.
     */
    private String unreadableCertificate() {
        List<byte[]> sent = certificates(SENT);
        if (sent != null && !sent.isEmpty()) {
            try {
                CertificateParts leaf = new CertificateParts(sent.get(0));
                String broken = ChainRules.refusal(List.of(leaf), false, false);
                if (broken != null) {
                    return TlsFailures.rejected(leaf.commonName(), broken);
                }
            } catch (IllegalArgumentException unreadable) {
                // said below
            }
        }
        return "the server's certificate cannot be read by this client (not X.509 as RFC 5280 writes it, or "
                + TlsFailures.WEAK_HASH + ")";
    }

    /** One list of swtls_certificate's, in order; null when the verified path was longer than swtls.c keeps. */
    private List<byte[]> certificates(int which) {
        List<byte[]> certificates = new ArrayList<>();
        byte[] buffer = new byte[4096];
        for (int index = 0; index < VerifiedChain.MOST_CERTIFICATES; index++) {
            int n;
            try (PinnedObject pinned = PinnedObject.create(buffer)) {
                n = MbedTlsCalls.swtls_certificate(connection, which, index, pinned.addressOfArrayElement(0), buffer.length);
            }
            if (n == TOO_LONG) {
                return null;
            }
            if (n < 0 || n > MOST_PEER_BYTES) {
                break;
            }
            if (n > buffer.length) {
                buffer = new byte[n];
                index--;
                continue;
            }
            certificates.add(java.util.Arrays.copyOf(buffer, n));
        }
        return certificates;
    }

    private ChainFinding finding(PeerFields.Read peer) {
        return MbedVerifyFlags.finding(MbedTlsCalls.swtls_verify_result(connection), peer);
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
