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
            assertTrue(run.err().contains("\tinfo\tredis://127.0.0.1:" + redis.port + " and tcp://127.0.0.1:" + redis.port
                    + " are ready!\n"), run.err());
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
    void theFirstLinesNameWhatIsAwaited() throws Exception {
        try (RealServer nats = RealServer.nats().start()) {
            String url = "nats://127.0.0.1:" + nats.port;
            CliRun alone = CliRun.run(Map.of(), "wait", "--url", url, "--timeout", "10s");
            assertEquals(0, alone.exit(), alone.err());
            assertTrue(alone.err().contains("\tinfo\tWaiting for " + url + " to be ready (timeout: 10 seconds)...\n"), alone.err());
            assertTrue(alone.err().contains("\tinfo\t" + url + " is ready!\n"), alone.err());

            CliRun late = CliRun.run(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"), "wait", "--url", url, "--url",
                    "http://localhost:" + RealServer.freePort() + "/healthz/ready", "--timeout", "300ms");
            assertEquals(1, late.exit(), late.err());
            assertTrue(late.err().contains("\tinfo\tWaiting for Envoy proxy and " + url + " to be ready (timeout: 0.3 seconds)..."),
                    late.err());
            assertTrue(late.err().contains("\terror\ttimeout waiting for Envoy proxy and " + url + " to become ready. "
                    + "Last error: http://localhost:"), late.err());

            CliRun linkerd = CliRun.run(Map.of(), "wait", "--mesh", "linkerd", "--url", url, "--url",
                    "http://127.0.0.1:" + RealServer.freePort() + "/ready", "--timeout", "200ms");
            assertTrue(linkerd.err().contains("\tinfo\tWaiting for Linkerd proxy and " + url + " to be ready"), linkerd.err());
        }
    }

    @Test
    void checkAndTheEnvironmentTakeTheNewSchemes() throws Exception {
        try (RealServer nats = RealServer.nats().start()) {
            String url = "nats://127.0.0.1:" + nats.port;
            CliRun check = CliRun.run(Map.of("SIDECAR_WAIT_URL", url + ",grpc://127.0.0.1:" + RealServer.freePort()),
                    "check", "--admin-url", "none");
            assertEquals(1, check.exit(), check.err());
            assertTrue(check.out().contains("  ready      " + url + "  NATS 2."), check.out());
            assertTrue(check.out().contains("NOT READY  grpc://127.0.0.1:") && check.out().contains("connection refused"),
                    check.out());
        }
        CliRun noPort = CliRun.run(Map.of(), "wait", "--url", "grpc://orders");
        assertEquals(2, noPort.exit());
        assertEquals("sidecar-wait wait: invalid value for --url: 'grpc://orders': a grpc:// target needs a port "
                + "(see 'sidecar-wait wait --help')\n", noPort.err());
    }

    /** An app's own URL pasted with its credentials: taken, never sent (the probe logs in as no one), never shown. */
    @Test
    void credentialsInAServerUrlAreTakenAndNeverShown() {
        CliRun run = CliRun.run(Map.of(), "wait", "--url", "postgres://app:s3cret@127.0.0.1:1/orders", "--timeout", "1s",
                "--verbose");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("postgres://***@127.0.0.1:1/orders") && !run.err().contains("s3cret"), run.err());
    }
}
