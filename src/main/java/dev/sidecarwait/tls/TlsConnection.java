package dev.sidecarwait.tls;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Literals;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * TLS over a connected socket: the handshake inside the exchange's deadline, the server's certificate judged as
 * the target's mode asks, then a {@link Wire} whose bytes go through the engine, so each protocol's probe runs over
 * it as over a plain connection. The socket's bytes are moved here, in Java, for both engines: timeouts, a
 * plain-text answer and every failure line are the same on the JVM and in the native binary.
 */
public final class TlsConnection implements AutoCloseable {

    /** How long a TLS 1.3 server that asked for a client certificate is given after the handshake to refuse it. */
    public static final int AFTERWORD_MILLIS = 100;

    private final TlsEngine engine;
    private final EngineStreams streams;
    private Handshaken result;
    private String verification;
    private long received;

    private TlsConnection(TlsEngine engine, Socket socket, Clock clock, boolean sentCertificate) throws IOException {
        this.engine = engine;
        this.streams = new EngineStreams(engine, socket, clock, sentCertificate);
    }

    /**
     * Handshakes as {@code settings} and {@code mode} say; throws, with one line saying why, when the server is not
     * the one asked for. {@code host}: the target's host, sent as SNI unless an IP address, and checked in VERIFY_FULL.
     * The certificate is judged inside the handshake, before the client's own certificate would be sent.
     */
    public static TlsConnection open(Socket socket, String host, TlsMode mode, String alpn, TlsSettings settings,
                                     long deadline, Clock clock, Timeout timeout) throws ProbeFailure {
        boolean verify = mode.verifiesChain() && !settings.insecure();
        CertificateJudge judge = verify ? new CertificateJudge(host, mode == TlsMode.VERIFY_FULL, settings.trust(), clock) : null;
        TlsEngine engine = engine(settings, host, judge, alpn);
        try {
            TlsConnection connection = new TlsConnection(engine, socket, clock, settings.identity() != null);
            connection.handshake(deadline, clock, timeout);
            Handshaken done = engine.result();
            String refusal = judge == null ? null : judge.refusal(done.certificate(), done.finding(), null);
            if (refusal != null) {
                throw new ProbeFailure(refusal);
            }
            connection.result = done;
            if (done.askedForCertificate() && "TLSv1.3".equals(done.version())) {
                connection.awaitRefusal(deadline, clock);
            }
            connection.verification = verification(mode, verify, host);
            return connection;
        } catch (IOException e) {
            engine.close();
            throw new ProbeFailure(ProbeFailure.describe(e));
        } catch (ProbeFailure e) {
            engine.close();
            throw e;
        }
    }

    /**
     * An engine for one connection; the first makes the run's client (TlsClients), which may fail to start. A client
     * that can use none of the trusted certificates verifies nothing, so it verifies no server: it fails closed.
     */
    private static TlsEngine engine(TlsSettings settings, String host, CertificateJudge judge, String alpn) throws ProbeFailure {
        try {
            TlsClient client = settings.client();
            if (judge != null && client.usableCas() == 0) {
                throw new ProbeFailure("no CA certificate this client can use to verify the server: " + settings.trust().source());
            }
            return client.engine(Literals.parse(host) == null ? host : null, judge, alpn);
        } catch (TlsException | IllegalStateException e) {
            throw new ProbeFailure("TLS could not start: " + e.getMessage());
        }
    }

    private static String verification(TlsMode mode, boolean verified, String host) {
        if (!verified) {
            return mode.verifiesChain() ? "not verified: --insecure" : "not verified: " + mode.sslmode();
        }
        return mode == TlsMode.VERIFY_FULL ? "certificate for " + host + " verified" : "certificate verified (name not checked: verify-ca)";
    }

    /**
     * Whether the server at the other end of {@code socket} answers a TLS handshake in TLS (a handshake, or an
     * alert), unverified and within the deadline: what a plain probe that met silence asks, to say "use https://".
     */
    public static boolean spoken(Socket socket, String host, TlsSettings settings, long deadline, Clock clock, Timeout timeout) {
        TlsEngine engine;
        try {
            engine = engine(settings, host, null, null);
        } catch (ProbeFailure e) {
            return false;
        }
        try {
            TlsConnection connection = new TlsConnection(engine, socket, clock, settings.identity() != null);
            try {
                connection.handshake(deadline, clock, timeout);
                return true;
            } catch (ProbeFailure | IOException e) {
                return connection.received > 0; // TLS records came (a plain-text answer is refused before it counts)
            }
        } catch (IOException e) {
            return false;
        } finally {
            engine.close();
        }
    }

    public Handshaken result() {
        return result;
    }

    /** For the probe's message: "TLSv1.3, certificate for orders.prod.svc verified". */
    public String describe() {
        return result.version() + ", " + verification;
    }

    /**
     * The application's bytes, within {@code deadline} as a plain connection's: each read of the Wire's ends in the
     * time it is given however the server's records arrive, a byte at a time included.
     */
    public Wire wire(long deadline, Clock clock, Timeout timeout, Wire.Peer peer) {
        return new Wire(streams::within, streams.input(), streams.output(), deadline, clock, timeout, peer);
    }

    /**
     * A TLS 1.3 server that asked for a client certificate refuses the client (none, or one it does not trust) only
     * after the client's side of the handshake is done. A short read gives it the chance to say so before the client
     * writes: once the server has closed, a write meets a reset, which can cost the alert. A record that comes (a
     * session ticket, most often) says the server took the client; silence for {@value #AFTERWORD_MILLIS} ms too, and
     * so does a record still coming then (a ticket sent a byte at a time has no more than that).
     */
    private void awaitRefusal(long deadline, Clock clock) throws ProbeFailure {
        long millis = Math.min(AFTERWORD_MILLIS, clock.millisUntil(deadline));
        byte[] one = new byte[1];
        try {
            streams.within((int) Math.max(1, millis));
            int n;
            while ((n = engine.read(one, 0, 1)) == TlsEngine.NEEDS_INPUT) {
                int got = streams.receive();
                if (got < 0) {
                    n = -1;
                    break;
                }
                streams.feed(got);
            }
            if (n == -1) {
                throw new ProbeFailure("the server closed the connection right after the TLS handshake");
            }
            // a record came: most often a session ticket, the server's sign that it took the handshake
        } catch (SocketTimeoutException quiet) {
            // nothing to say: ready
        } catch (TlsException e) {
            throw new ProbeFailure(e.alert() >= 0 ? streams.alert(e) : "TLS: " + e.getMessage());
        } catch (IOException e) {
            throw new ProbeFailure(ProbeFailure.describe(e));
        }
    }

    private void handshake(long deadline, Clock clock, Timeout timeout) throws ProbeFailure, IOException {
        while (true) {
            int state;
            try {
                state = engine.handshake();
                streams.flush();
            } catch (TlsException e) {
                streams.flushQuietly();
                throw new ProbeFailure(handshakeFailure(e));
            }
            if (state == 0) {
                return;
            }
            long left = clock.millisUntil(deadline);
            if (left <= 0) {
                throw timeout.failure();
            }
            streams.within((int) Math.min(left, Integer.MAX_VALUE));
            int n;
            try {
                n = streams.receive();
            } catch (SocketTimeoutException e) {
                throw received > 0 ? timeout.failure() : new ProbeFailure(timeout.failure().getMessage()
                        + ", with no answer to the TLS handshake (a plain-text server waiting for its client?)");
            }
            if (n < 0) {
                throw new ProbeFailure(received == 0 ? "connection closed at the TLS handshake (a plain-text server, or a proxy with no upstream?)"
                        : "connection closed during the TLS handshake");
            }
            if (received == 0 && (streams.firstByte() < 20 || streams.firstByte() > 23)) { // not a TLS record's type
                throw new ProbeFailure("not TLS: the server answered in plain text ('" + streams.firstLine(n) + "'); use the plain scheme");
            }
            received += n;
            try {
                streams.feed(n);
            } catch (TlsException e) {
                throw new ProbeFailure(handshakeFailure(e));
            }
        }
    }

    private String handshakeFailure(TlsException e) {
        return e.refused() ? e.getMessage() : e.alert() >= 0 ? streams.alert(e) : "TLS handshake failed: " + e.getMessage();
    }

    @Override
    public void close() {
        engine.close();
    }
}
