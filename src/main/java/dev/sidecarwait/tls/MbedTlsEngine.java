package dev.sidecarwait.tls;

import java.nio.charset.StandardCharsets;
import org.graalvm.nativeimage.PinnedObject;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.nativeimage.c.type.CTypeConversion;
import org.graalvm.word.PointerBase;

/** One connection through Mbed TLS: each call holds the client's lock (see MbedTls). */
final class MbedTlsEngine implements TlsEngine {

    private static final int WANT_READ = -0x6900;
    private static final int FATAL_ALERT = -0x7780;

    private final PointerBase connection;
    private final Object lock;
    private boolean closed;

    MbedTlsEngine(PointerBase connection, Object lock) {
        this.connection = connection;
        this.lock = lock;
    }

    @Override
    public int handshake() throws TlsException {
        synchronized (lock) {
            int r = MbedTlsCalls.swtls_handshake(connection);
            return r == WANT_READ ? NEEDS_INPUT : check(r);
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

    private int check(int r) throws TlsException {
        if (r >= 0) {
            return r;
        }
        throw new TlsException(r == FATAL_ALERT ? MbedTlsCalls.swtls_alert(connection) : -1, MbedTls.error(r));
    }

    @Override
    public Handshaken result() {
        synchronized (lock) {
            int flags = MbedTlsCalls.swtls_verify_result(connection) & ~0x04; // the name is checked apart (ServerName)
            ChainProblem problem = (flags & 0x08) != 0 ? ChainProblem.UNTRUSTED
                    : (flags & 0x01) != 0 ? ChainProblem.EXPIRED
                    : (flags & 0x0200) != 0 ? ChainProblem.NOT_YET_VALID
                    : flags != 0 ? ChainProblem.OTHER : null;
            CCharPointer alpn = MbedTlsCalls.swtls_alpn(connection);
            return new Handshaken(CTypeConversion.toJavaString(MbedTlsCalls.swtls_version(connection)), // "TLSv1.3", as the JDK's
                    alpn.isNull() ? null : CTypeConversion.toJavaString(alpn), peer(),
                    problem, problem == ChainProblem.OTHER ? otherProblem(flags) : null,
                    MbedTlsCalls.swtls_asked_for_certificate(connection) != 0);
        }
    }

    /** Mbed TLS's verify flags (x509.h's MBEDTLS_X509_BADCERT_*) beyond trust and validity, in words. */
    private static String otherProblem(int flags) {
        if ((flags & 0x4000) != 0) {
            return "signed with a hash this client does not accept (SHA-1?)";
        }
        if ((flags & (0x8000 | 0x010000)) != 0) {
            return "signed with a key this client does not accept";
        }
        if ((flags & (0x0800 | 0x1000)) != 0) {
            return "its key usage does not allow a TLS server";
        }
        return "Mbed TLS verify flags 0x" + Integer.toHexString(flags);
    }

    private PeerCertificate peer() {
        byte[] text = new byte[8192];
        int n;
        try (PinnedObject pinned = PinnedObject.create(text)) {
            n = MbedTlsCalls.swtls_peer(connection, pinned.addressOfArrayElement(0), text.length);
        }
        return n < 0 ? null : MbedTls.peerCertificate(new String(text, 0, n, StandardCharsets.UTF_8));
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

