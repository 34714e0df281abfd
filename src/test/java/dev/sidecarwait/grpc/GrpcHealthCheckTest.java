package dev.sidecarwait.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The health check against the answers no real server here gives: Envoy's local replies (Envoy is not installable;
 * the header fields are those its source sends, Http::Utility::prepareLocalReply, encoded as its HPACK encoder
 * encodes them) and frames out of the ordinary, played by a scripted HTTP/2 peer over a real loopback connection.
 * grpc-java's own health service, through the whole probe, is in probe/GrpcProbeTest.
 */
class GrpcHealthCheckTest {

    private record Answer(boolean ready, String text) {
    }

    /** One check of the server as a whole, as a probe makes it: a real connection, a 2 s deadline. */
    private static Answer check(int port) throws IOException {
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            long deadline = System.nanoTime() + 2_000_000_000L;
            Wire wire = new Wire(socket, deadline, Clock.SYSTEM, new Timeout(2000, false), Wire.Peer.SERVER);
            return new Answer(true, new GrpcHealthCheck().exchange(wire, "127.0.0.1", port, ""));
        } catch (ProbeFailure notReady) {
            return new Answer(false, notReady.getMessage());
        }
    }

    /** Envoy's answer to a gRPC request when the cluster has no healthy host: trailers only, grpc-status 14. */
    @Test
    void envoysLocalReplyForAGrpcRequestIsNotReady() throws Exception {
        try (Http2Peer envoy = new Http2Peer(peer -> {
            peer.readRequest();
            peer.sendEnvoySettings();
            peer.send(Http2Connection.SETTINGS, Http2Connection.ACK, 0, new byte[0]);
            peer.send(Http2Connection.HEADERS, Http2Connection.END_STREAM | Http2Connection.END_HEADERS, 1, Http2Peer.block(
                    "#8", "content-type", "application/grpc", "grpc-status", "14", "grpc-message", "no healthy upstream",
                    "date", "Mon, 23 Nov 2026 14:00:00 GMT", "server", "envoy"));
        })) {
            Answer result = check(envoy.port());
            assertFalse(result.ready());
            assertEquals("gRPC UNAVAILABLE: no healthy upstream (a proxy with no upstream?)", result.text());
            Thread.sleep(200);
            assertTheRequestWasAHealthCheck(envoy, "127.0.0.1:" + envoy.port());
            assertTrue(envoy.received.stream().anyMatch(f -> f.type() == Http2Connection.SETTINGS
                    && f.flags() == Http2Connection.ACK), "Envoy's SETTINGS were acknowledged");
            assertTrue(envoy.receivedGoAway(), "the client said goodbye");
        }
    }

    /** The same refusal as a plain HTTP 503 with Envoy's text body, as a proxy sends it for a non-gRPC request. */
    @Test
    void aPlainHttp503OverHttp2IsNotReady() throws Exception {
        try (Http2Peer envoy = new Http2Peer(peer -> {
            peer.readRequest();
            peer.sendEnvoySettings();
            peer.send(Http2Connection.HEADERS, Http2Connection.END_HEADERS, 1, Http2Peer.block(":status", "503", "content-length", "19",
                    "content-type", "text/plain", "date", "Mon, 23 Nov 2026 14:00:00 GMT", "server", "envoy"));
            peer.send(Http2Connection.DATA, Http2Connection.END_STREAM, 1, "no healthy upstream".getBytes(StandardCharsets.US_ASCII));
        })) {
            Answer result = check(envoy.port());
            assertFalse(result.ready());
            assertEquals("answered HTTP 503 over HTTP/2, not gRPC: 'no healthy upstream' (a proxy with no upstream?)",
                    result.text());
        }
    }

    @Test
    void pingsAreAnsweredBeforeTheAnswerAndPaddingAndContinuationAreRead() throws Exception {
        byte[] ping = {1, 2, 3, 4, 5, 6, 7, 8};
        try (Http2Peer server = new Http2Peer(peer -> {
            peer.readRequest();
            peer.send(Http2Connection.SETTINGS, 0, 0, new byte[0]);
            peer.send(Http2Connection.PING, 0, 0, ping);
            Http2Peer.Frame pong;
            do {
                pong = peer.read();
            } while (pong.type() != Http2Connection.PING);
            if ((pong.flags() & Http2Connection.ACK) == 0 || !Arrays.equals(ping, pong.payload())) {
                return; // no answer for a client that does not answer PINGs
            }
            byte[] headers = Http2Peer.block("#8", "content-type", "application/grpc");
            peer.send(Http2Connection.HEADERS, 0, 1, Arrays.copyOf(headers, 3));
            peer.send(Http2Connection.CONTINUATION, Http2Connection.END_HEADERS, 1,
                    Arrays.copyOfRange(headers, 3, headers.length));
            byte[] padded = {4, 0, 0, 0, 0, 2, 0x08, 0x01, 0, 0, 0, 0}; // pad length 4, message: status SERVING
            peer.send(Http2Connection.DATA, Http2Connection.PADDED, 1, padded);
            peer.send(Http2Connection.HEADERS, Http2Connection.END_STREAM | Http2Connection.END_HEADERS, 1,
                    Http2Peer.block("grpc-status", "0"));
        })) {
            Answer result = check(server.port());
            assertTrue(result.ready(), result.text());
        }
    }

    @Test
    void resetsGoawaysAndAnHttp1ServerAreNamed() throws Exception {
        try (Http2Peer refusing = new Http2Peer(peer -> {
            peer.readRequest();
            peer.send(Http2Connection.SETTINGS, 0, 0, new byte[0]);
            peer.send(Http2Connection.RST_STREAM, 0, 1, new byte[] {0, 0, 0, 7});
        })) {
            assertEquals("the server reset the stream (REFUSED_STREAM)", check(refusing.port()).text());
        }
        try (Http2Peer goingAway = new Http2Peer(peer -> {
            peer.readRequest();
            peer.send(Http2Connection.SETTINGS, 0, 0, new byte[0]);
            byte[] payload = new byte[8 + "too_many_pings".length()];
            payload[7] = 11; // ENHANCE_YOUR_CALM, last stream 0
            System.arraycopy("too_many_pings".getBytes(StandardCharsets.US_ASCII), 0, payload, 8, 14);
            peer.send(Http2Connection.GOAWAY, 0, 0, payload);
        })) {
            assertEquals("the server closed the connection (GOAWAY ENHANCE_YOUR_CALM: too_many_pings)",
                    check(goingAway.port()).text());
        }
        try (Http2Peer http1 = new Http2Peer(peer -> peer.sendRaw(
                "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))) {
            assertEquals("answered with HTTP/1, not HTTP/2 (gRPC needs HTTP/2 without TLS)",
                    check(http1.port()).text());
        }
    }

    @Test
    void aFrameLongerThanAllowedIsRefusedBeforeItIsRead() throws Exception {
        try (Http2Peer huge = new Http2Peer(peer -> {
            peer.readRequest();
            peer.send(Http2Connection.SETTINGS, 0, 0, new byte[0]);
            peer.sendRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 4, 0, 0, 0, 1}); // 16 MiB of HEADERS announced
        })) {
            assertEquals("HTTP/2 frame of 16777215 bytes, more than the 16384 allowed",
                    check(huge.port()).text());
        }
    }

    private static void assertTheRequestWasAHealthCheck(Http2Peer peer, String authority) throws Exception {
        Http2Peer.Frame headers = peer.received.stream().filter(f -> f.type() == Http2Connection.HEADERS).findFirst()
                .orElseThrow();
        List<Hpack.Field> fields = new Hpack().decode(headers.payload());
        assertEquals(List.of(":method", ":scheme", ":path", ":authority", "content-type", "te", "grpc-timeout", "user-agent"),
                fields.stream().map(Hpack.Field::name).toList());
        assertEquals(new Hpack.Field(":path", "/grpc.health.v1.Health/Check"), fields.get(2));
        assertEquals(new Hpack.Field(":authority", authority), fields.get(3));
        assertTrue(fields.get(6).value().matches("[0-9]{1,8}m"), fields.get(6).value());
        Http2Peer.Frame data = peer.received.stream().filter(f -> f.type() == Http2Connection.DATA).findFirst().orElseThrow();
        assertEquals(List.of((byte) 0, (byte) 0, (byte) 0, (byte) 0, (byte) 0), toList(data.payload()),
                "an empty HealthCheckRequest: the server as a whole");
    }

    private static List<Byte> toList(byte[] bytes) {
        List<Byte> list = new ArrayList<>();
        for (byte b : bytes) {
            list.add(b);
        }
        return list;
    }
}
