package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Timeout;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import dev.sidecarwait.tls.TlsSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
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
 * grpc:// through the whole probe against grpc-java's own health service (HealthStatusManager, on Netty), switched
 * while a wait runs. Envoy's local replies and odd frames, against the gRPC room alone: grpc/GrpcHealthCheckTest.
 */
class GrpcProbeTest {

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

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
}
