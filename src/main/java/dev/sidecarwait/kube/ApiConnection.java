package dev.sidecarwait.kube;

import dev.sidecarwait.Clock;
import dev.sidecarwait.Version;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.probe.Connector;
import dev.sidecarwait.probe.HttpHead;
import dev.sidecarwait.tls.TlsConnection;
import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One GET to the API server over TLS, its certificate verified against ca.crt and the host as given (an IP address
 * in a pod), the service account's token read afresh: the status line and headers read, then the body read whole
 * (a list, at most {@code maxBody} bytes) or, for a watch, its events read as they come ({@link #events}).
 */
final class ApiConnection implements AutoCloseable {

    final int status;
    /** Retry-After in seconds, or -1. */
    final long retryAfter;
    private final boolean chunked;
    private final long length;
    private final Socket socket;
    private final TlsConnection tls;
    private final Wire wire;

    private ApiConnection(int status, long retryAfter, boolean chunked, long length, Socket socket, TlsConnection tls, Wire wire) {
        this.status = status;
        this.retryAfter = retryAfter;
        this.chunked = chunked;
        this.length = length;
        this.socket = socket;
        this.tls = tls;
        this.wire = wire;
    }

    static ApiConnection get(ApiServer api, String pathAndQuery, Clock clock, Resolver resolver, long deadline,
                             Timeout timeout) throws ProbeFailure {
        String token = api.token();
        Socket socket = new Connector(clock, resolver).connect(api.host(), api.port(), deadline, timeout);
        TlsConnection tls = null;
        try {
            tls = TlsConnection.open(socket, api.host(), TlsMode.VERIFY_FULL, "http/1.1", api.tls(), deadline, clock, timeout);
            Wire wire = tls.wire(deadline, clock, timeout, Wire.Peer.HTTP);
            wire.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + api.authority() + "\r\n"
                    + "User-Agent: sidecar-wait/" + Version.VERSION + "\r\nAccept: application/json\r\n"
                    + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            return head(wire, socket, tls);
        } catch (ProbeFailure | RuntimeException failed) {
            close(socket, tls);
            throw failed;
        }
    }

    /** The status line and headers; {@code socket} and {@code tls} are closed with it (null for a test's bytes). */
    static ApiConnection head(Wire wire, Socket socket, TlsConnection tls) throws ProbeFailure {
        HttpHead head = HttpHead.read(wire);
        return new ApiConnection(head.status, head.retryAfter, head.chunked, head.contentLength, socket, tls, wire);
    }

    /** The whole body, at most {@code maxBody} bytes. */
    byte[] body(int maxBody) throws ProbeFailure {
        if (!chunked && length > maxBody) {
            throw tooLarge(maxBody);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ChunkedBody frames = new ChunkedBody(chunked);
        for (long read = 0; !frames.done() && (chunked || length < 0 || read < length); read++) {
            int b = chunked || length >= 0 ? wire.next() : wire.read();
            if (b < 0) {
                break; // a body that ends with the connection
            }
            if (frames.data(b)) {
                if (body.size() >= maxBody) {
                    throw tooLarge(maxBody);
                }
                body.write(b);
            }
        }
        return body.toByteArray();
    }

    private static ProbeFailure tooLarge(int maxBody) {
        return new ProbeFailure("the API server's answer is larger than " + maxBody / 1024 + " KiB");
    }

    /** A watch's events as they come, read within each attempt's time. */
    WatchEvents events(int maxEvent) {
        return new WatchEvents(wire, new ChunkedBody(chunked), maxEvent);
    }

    @Override
    public void close() {
        close(socket, tls);
    }

    private static void close(Socket socket, TlsConnection tls) {
        if (tls != null) {
            tls.close();
        }
        try {
            if (socket != null) {
                socket.close();
            }
        } catch (java.io.IOException ignored) {
            // nothing left to do with a connection we are abandoning
        }
    }
}
