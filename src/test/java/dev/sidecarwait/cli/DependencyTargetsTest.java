package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.servers.RealServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** redis:// and friends through the command line: flags, the environment, mixed with http:// and tcp://. */
class DependencyTargetsTest {

    @Test
    void waitTakesServerUrlsFromTheEnvironmentMixedWithOthers() throws Exception {
        try (RealServer redis = RealServer.redis().start()) {
            String urls = "redis://127.0.0.1:" + redis.port + ",tcp://127.0.0.1:" + redis.port;
            CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_URL", urls), "wait", "--timeout", "10s");
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.err().contains("Envoy is ready!"), run.err());
        }
    }

    @Test
    void checkShowsEachDependencysState() throws Exception {
        int closed = RealServer.freePort();
        try (RealServer redis = RealServer.redis().start()) {
            CliRun run = CliRun.run(Map.of(), "check", "--admin-url", "none", "--url", "redis://127.0.0.1:" + redis.port,
                    "--url", "postgres://127.0.0.1:" + closed);
            assertEquals(1, run.exit(), run.err());
            assertTrue(run.out().contains("  ready      redis://127.0.0.1:" + redis.port + "  PONG"), run.out());
            assertTrue(run.out().contains("NOT READY  postgres://127.0.0.1:" + closed + "  connection refused"), run.out());

            CliRun json = CliRun.run(Map.of(), "check", "--admin-url", "none", "--output", "json",
                    "--url", "redis://127.0.0.1:" + redis.port);
            assertEquals(0, json.exit(), json.err());
            assertTrue(json.out().contains("\"kind\":\"redis\",\"ready\":true,\"status\":null,\"error\":null"), json.out());
            assertTrue(json.out().contains("\"body\":\"PONG\""), json.out());
        }
    }

    @Test
    void credentialsInAServerUrlAreAUsageError() {
        CliRun run = CliRun.run(Map.of(), "wait", "--url", "postgres://app:s3cret@db:5432/orders");
        assertEquals(2, run.exit());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().contains("--url") && run.err().contains("leave the user and password out"), run.err());
    }
}
