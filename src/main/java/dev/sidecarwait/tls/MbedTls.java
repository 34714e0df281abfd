package dev.sidecarwait.tls;

import java.util.ArrayList;
import java.util.List;
import org.graalvm.nativeimage.PinnedObject;
import org.graalvm.nativeimage.c.type.CTypeConversion;
import org.graalvm.word.PointerBase;

/**
 * TLS in the native binary: Mbed TLS 3.6, built from Debian's source with native/tls/ (its configuration, and
 * swtls.c, the engine these calls reach). Only the native image uses it, in place of {@link JdkTls}
 * (TlsClients); the JVM never loads it (the GraalVM SDK is a compile-time dependency, not in the jar).
 *
 * <p>Mbed TLS is built without threads (PSA's key store is global), and a wait probes its targets on threads of
 * their own: every call into it holds this client's lock, one at a time. A call lasts microseconds to a few
 * milliseconds (a signature), so a probe waits at most that for another's.
 */
public final class MbedTls implements TlsClient {

    private final Object lock = new Object();
    private final PointerBase trust;
    private final List<byte[]> anchors = new ArrayList<>();

    public MbedTls(Trust trust, Identity identity) {
        this.trust = MbedTlsCalls.swtls_trust_new();
        if (this.trust.isNull()) {
            throw new IllegalStateException("Mbed TLS could not start (PSA crypto or its random generator)");
        }
        for (byte[] der : trust.certificates()) {
            try (PinnedObject pinned = PinnedObject.create(der)) {
                if (MbedTlsCalls.swtls_trust_add(this.trust, pinned.addressOfArrayElement(0), der.length) == 0) {
                    anchors.add(der); // one the library cannot read is skipped, as OpenSSL skips it
                }
            }
        }
        if (identity != null) {
            for (byte[] der : identity.chain()) {
                try (PinnedObject pinned = PinnedObject.create(der)) {
                    int r = MbedTlsCalls.swtls_own_cert(this.trust, pinned.addressOfArrayElement(0), der.length);
                    if (r != 0) {
                        throw new BadFile(BadFile.Role.CERT, identity.certFile(), "a certificate that cannot be read ("
                                + error(r) + ")");
                    }
                }
            }
            byte[] key = identity.key().der();
            try (PinnedObject pinned = PinnedObject.create(key)) {
                int r = MbedTlsCalls.swtls_own_key(this.trust, pinned.addressOfArrayElement(0), key.length);
                if (r == 1) {
                    throw new BadFile(BadFile.Role.KEY, identity.keyFile(), "it is not the key of --cert "
                            + identity.certFile() + " (the first certificate there)");
                }
                if (r != 0) {
                    throw new BadFile(BadFile.Role.KEY, identity.keyFile(), "not a private key this client can use ("
                            + error(r) + ")");
                }
            }
        }
    }

    @Override
    public TlsEngine engine(String serverName, CertificateJudge judge, String alpn) throws TlsException {
        synchronized (lock) {
            PointerBase connection;
            try (CTypeConversion.CCharPointerHolder name = CTypeConversion.toCString(serverName);
                 CTypeConversion.CCharPointerHolder protocol = CTypeConversion.toCString(alpn)) {
                connection = MbedTlsCalls.swtls_conn_new(trust, name.get(), judge != null ? 1 : 0, protocol.get());
            }
            if (connection.isNull()) {
                throw new TlsException(-1, "Mbed TLS could not set up a connection");
            }
            return new MbedTlsEngine(connection, lock, judge, anchors);
        }
    }

    @Override
    public int usableCas() {
        return anchors.size();
    }

    static String error(int code) {
        byte[] text = new byte[160];
        try (PinnedObject pinned = PinnedObject.create(text)) {
            MbedTlsCalls.swtls_error(code, pinned.addressOfArrayElement(0), text.length);
        }
        int end = 0;
        while (end < text.length && text[end] != 0) {
            end++;
        }
        return new String(text, 0, end, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
