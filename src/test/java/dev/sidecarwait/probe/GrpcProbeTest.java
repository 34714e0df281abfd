package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * grpc:// against grpc-java's own health service (HealthStatusManager, on Netty), switched while a wait runs;
 * Envoy's local replies, which cannot be had here (Envoy is not installable), replayed by a scripted HTTP/2 peer
 * with the header fields Envoy's source sends (Http::Utility::prepareLocalReply) and encoded as its HPACK encoder
 * encodes them.
 */
class GrpcProbeTest {

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"));

    private ProbeResult probe(String url) {
        return prober.probe(Target.parse(url), Timeout.of(Duration.ofSeconds(2)));
    }

    private static Server grpcServer(HealthStatusManager health) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
        if (health != null) {
            builder.addService(health.getHealthService());
        }
        return builder.build().start();
    }

    @Test
    void servingIsReadyAndAWaitFollowsTheServerFromNotServingToServing() throws Exception {
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("", ServingStatus.NOT_SERVING);
        Server server = grpcServer(health);
        String url = "grpc://127.0.0.1:" + server.getPort();
        try {
            ProbeResult notServing = probe(url);
            assertFalse(notServing.ready());
            assertEquals("gRPC health: the server is NOT_SERVING", notServing.detail());

            List<ProbeResult> failures = new CopyOnWriteArrayList<>();
            CompletableFuture<Waiter.Outcome> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return new Waiter(Clock.SYSTEM, prober).await(List.of(Target.parse(url)), Duration.ofSeconds(20),
                            Duration.ofMillis(50), Duration.ofSeconds(1), failures::add);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (failures.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals("gRPC health: the server is NOT_SERVING", failures.get(0).detail());
            health.setStatus("", ServingStatus.SERVING);
            Waiter.Outcome outcome = waiting.get(20, TimeUnit.SECONDS);
            assertTrue(outcome.ready(), String.valueOf(outcome.unready()));
            assertTrue(outcome.attempts().values().iterator().next() > 3, "it waited while NOT_SERVING");

            ProbeResult serving = probe(url);
            assertTrue(serving.ready(), serving.detail());
            assertEquals("SERVING", serving.bodyLine());

            health.setStatus("orders.v1.Orders", ServingStatus.SERVING);
            assertTrue(probe(url + "/orders.v1.Orders").ready(), "a named service");
            ProbeResult unknown = probe(url + "/billing.v1.Billing");
            assertFalse(unknown.ready());
            assertEquals("the health service does not know service 'billing.v1.Billing' (NOT_FOUND)", unknown.detail());
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        assertEquals("connection refused", probe(url).detail());
    }

    @Test
    void aServerWithoutTheHealthServiceSaysSo() throws Exception {
        Server server = grpcServer(null);
        try {
            ProbeResult result = probe("grpc://127.0.0.1:" + server.getPort());
            assertFalse(result.ready());
            assertEquals("the server has no gRPC health service (UNIMPLEMENTED); probe it with tcp:// or http:// instead",
                    result.detail());
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * grpc-java logs through java.util.logging, at INFO and above by default: nothing there about a probe, which
     * ends its connection with GOAWAY (below INFO it notes each connection's window and TCP metrics, for any client).
     */
    @Test
    void theServerLogsNothingAboutAProbe() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger grpc = Logger.getLogger("io.grpc");
        Level before = grpc.getLevel();
        grpc.setLevel(Level.ALL);
        grpc.addHandler(capture);
        HealthStatusManager health = new HealthStatusManager();
        Server server = grpcServer(health);
        try {
            for (int i = 0; i < 5; i++) {
                assertTrue(probe("grpc://127.0.0.1:" + server.getPort()).ready());
            }
            Thread.sleep(300);
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            grpc.removeHandler(capture);
            grpc.setLevel(before);
        }
        List<String> said = new ArrayList<>();
        records.stream().filter(r -> r.getLevel().intValue() >= Level.INFO.intValue())
                .forEach(r -> said.add(r.getLevel() + " " + r.getMessage()));
        assertEquals(List.of(), said);
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
            ProbeResult result = probe("grpc://127.0.0.1:" + envoy.port());
            assertFalse(result.ready());
            assertEquals("gRPC UNAVAILABLE: no healthy upstream (a proxy with no upstream?)", result.detail());
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
            ProbeResult result = probe("grpc://127.0.0.1:" + envoy.port());
            assertFalse(result.ready());
            assertEquals("answered HTTP 503 over HTTP/2, not gRPC: 'no healthy upstream' (a proxy with no upstream?)",
                    result.detail());
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
            if ((pong.flags() & Http2Connection.ACK) == 0 || !java.util.Arrays.equals(ping, pong.payload())) {
                return; // no answer for a client that does not answer PINGs
            }
            byte[] headers = Http2Peer.block("#8", "content-type", "application/grpc");
            peer.send(Http2Connection.HEADERS, 0, 1, java.util.Arrays.copyOf(headers, 3));
            peer.send(Http2Connection.CONTINUATION, Http2Connection.END_HEADERS, 1,
                    java.util.Arrays.copyOfRange(headers, 3, headers.length));
            byte[] padded = {4, 0, 0, 0, 0, 2, 0x08, 0x01, 0, 0, 0, 0}; // pad length 4, message: status SERVING
            peer.send(Http2Connection.DATA, Http2Connection.PADDED, 1, padded);
            peer.send(Http2Connection.HEADERS, Http2Connection.END_STREAM | Http2Connection.END_HEADERS, 1,
                    Http2Peer.block("grpc-status", "0"));
        })) {
            ProbeResult result = probe("grpc://127.0.0.1:" + server.port());
            assertTrue(result.ready(), result.detail());
        }
    }

    @Test
    void resetsGoawaysAndAnHttp1ServerAreNamed() throws Exception {
        try (Http2Peer refusing = new Http2Peer(peer -> {
            peer.readRequest();
            peer.send(Http2Connection.SETTINGS, 0, 0, new byte[0]);
            peer.send(Http2Connection.RST_STREAM, 0, 1, new byte[] {0, 0, 0, 7});
        })) {
            assertEquals("the server reset the stream (REFUSED_STREAM)", probe("grpc://127.0.0.1:" + refusing.port()).detail());
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
                    probe("grpc://127.0.0.1:" + goingAway.port()).detail());
        }
        try (Http2Peer http1 = new Http2Peer(peer -> peer.sendRaw(
                "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))) {
            assertEquals("answered with HTTP/1, not HTTP/2 (gRPC needs HTTP/2 without TLS)",
                    probe("grpc://127.0.0.1:" + http1.port()).detail());
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
                    probe("grpc://127.0.0.1:" + huge.port()).detail());
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
