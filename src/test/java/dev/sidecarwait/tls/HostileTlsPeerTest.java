package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.HostilePeer;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.servers.TestCa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * No peer stretches a wait past its timeout, or an attempt past its request timeout, or crashes it: against servers
 * that never answer the ClientHello, answer garbage, reset, send an alert at once, or let their bytes through a byte
 * at a time (HostilePeer), for every TLS scheme, as a process (the JVM, and Mbed TLS in each native binary). The
 * bound is the timeout plus a grace for starting the process and ending its last attempt.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileTlsPeerTest {

    /** Start-up (a JVM, or qemu-user) and the last attempt's end: what a wait may take beyond its timeout here. */
    private static final Duration GRACE = Duration.ofMillis(SidecarWaitProcess.EMULATED ? 4000 : 2500);

    private Path dir;
    private TestCa ca;
    private RealServer tls12;
    private RealServer tls13;

    @BeforeAll
    void servers(@TempDir Path classDir) throws Exception {
        dir = classDir; // removed after the class, whatever its outcome
        ca = TestCa.create(dir, "Test CA");
        TestCa.Issued good = ca.server("localhost", "DNS:localhost");
        tls12 = RealServer.nginxTls(good, "TLSv1.2", null).start();
        tls13 = RealServer.nginxTls(good, "TLSv1.3", null).start();
    }

    @AfterAll
    void stop() throws Exception {
        tls12.close();
        tls13.close();
    }

    /** Every scheme that speaks TLS, each after its own first words where it has them (PostgreSQL, MySQL). */
    private static List<String> everyScheme(int port) {
        return List.of("https://localhost:" + port + "/", "tls://localhost:" + port, "rediss://localhost:" + port,
                "grpcs://localhost:" + port, "amqps://localhost:" + port,
                "postgres://localhost:" + port + "/orders?sslmode=verify-full",
                "mysql://localhost:" + port + "/?ssl-mode=VERIFY_IDENTITY");
    }

    private record Timed(SidecarWaitProcess.Result result, Duration took) {
    }

    private Timed waitOn(List<String> urls, String timeout, String... more) throws Exception {
        return waitEvery("200ms", urls, timeout, more);
    }

    private Timed waitEvery(String period, List<String> urls, String timeout, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("wait", "--cacert", ca.cert.toString(), "--timeout", timeout,
                "--request-timeout", "1s", "--period", period));
        for (String url : urls) {
            args.addAll(List.of("--url", url));
        }
        args.addAll(List.of(more));
        long start = System.nanoTime();
        SidecarWaitProcess.Result result = SidecarWaitProcess.run(Map.of(), null, args.toArray(String[]::new));
        return new Timed(result, Duration.ofNanos(System.nanoTime() - start));
    }

    private static void assertWithin(Duration bound, Timed run) {
        assertTrue(run.took().compareTo(bound.plus(GRACE)) <= 0, "took " + run.took().toMillis() + " ms, more than "
                + bound.toMillis() + " ms and the grace: " + run.result().err());
    }

    @Test
    void aServerThatNeverAnswersTheClientHelloHoldsNoWaitPastItsTimeout() throws Exception {
        try (HostilePeer peer = new HostilePeer(HostilePeer.Mode.SILENT, 0)) {
            Timed run = waitOn(everyScheme(peer.port), "3s");
            assertEquals(1, run.result().exit(), run.result().err());
            assertWithin(Duration.ofSeconds(3), run);
            assertTrue(run.result().err().contains("request timed out after 1000 ms")
                    || run.result().err().contains("no answer before the overall timeout"), run.result().err());
        }
    }

    @Test
    void garbageAResetOrAnAlertAtOnceEndsEachAttemptWithItsReason() throws Exception {
        for (HostilePeer.Mode mode : List.of(HostilePeer.Mode.GARBAGE, HostilePeer.Mode.RESET, HostilePeer.Mode.ALERT,
                HostilePeer.Mode.UNKNOWN_ALERT, HostilePeer.Mode.OVERSIZED_RECORD, HostilePeer.Mode.ZERO_LENGTH_RECORDS)) {
            try (HostilePeer peer = new HostilePeer(mode, 0)) {
                Timed run = waitOn(everyScheme(peer.port), "2s");
                assertEquals(1, run.result().exit(), mode + ": " + run.result().err());
                assertWithin(Duration.ofSeconds(2), run);
                assertTrue(!run.result().err().contains("internal error") && !run.result().err().contains("Exception"),
                        mode + ": " + run.result().err());
                String said = switch (mode) {
                    case ALERT -> "the server ended TLS with alert handshake_failure (40)";
                    case UNKNOWN_ALERT -> "(251)";
                    case RESET -> "connection reset";
                    case OVERSIZED_RECORD -> SidecarWaitProcess.NATIVE ? "a record or handshake message larger than this client takes"
                            : "Input record too big";
                    default -> "";
                };
                assertTrue(run.result().err().contains(said), mode + ": " + run.result().err());
            }
        }
    }

    @Test
    void aResponseDrippedAByteAtATimeAfterTheHandshakeEndsAtTheRequestTimeout() throws Exception {
        try (HostilePeer peer = new HostilePeer(HostilePeer.Mode.DRIP_AFTER_HANDSHAKE, tls12.port)) {
            // one attempt, as check makes it: within the request timeout, whatever the record's length
            long start = System.nanoTime();
            SidecarWaitProcess.Result check = SidecarWaitProcess.run(Map.of(), null, "check", "--mesh", "envoy",
                    "--admin-url", "none", "--cacert", ca.cert.toString(), "--request-timeout", "1s", "--url",
                    "https://localhost:" + peer.port + "/");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(1, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("request timed out after 1000 ms"), check.out());
            assertTrue(took.compareTo(Duration.ofSeconds(1).plus(GRACE)) <= 0, "took " + took.toMillis() + " ms: " + check.out());
            Timed run = waitOn(List.of("https://localhost:" + peer.port + "/"), "4s");
            assertEquals(1, run.result().exit(), run.result().err());
            assertWithin(Duration.ofSeconds(4), run);
        }
    }

    /**
     * A TLS 1.3 server that asks for a client certificate is given a moment after the handshake to refuse it, and a
     * server that lets its session tickets and its response through a byte at a time gains nothing by it.
     */
    @Test
    void sessionTicketsDrippedAfterATls13HandshakeHoldNothingPastTheRequestTimeout() throws Exception {
        TestCa.Issued client = ca.client("probe");
        try (RealServer asking = RealServer.nginxTls(ca.server("localhost", "DNS:localhost"), "TLSv1.3", null,
                "ssl_client_certificate " + ca.cert + "; ssl_verify_client optional;").start();
             HostilePeer peer = new HostilePeer(HostilePeer.Mode.DRIP_AFTER_CLIENT_FINISHED, asking.port)) {
            Timed run = waitOn(List.of("https://localhost:" + peer.port + "/"), "3s", "--cert", client.cert().toString(),
                    "--key", client.key().toString());
            assertEquals(1, run.result().exit(), run.result().err());
            assertWithin(Duration.ofSeconds(3), run);
        }
    }

    /**
     * A TLS 1.3 server (openssl s_server) that follows its handshake with session tickets without end, before it reads
     * the request: a tls:// wait is ready at its handshake, an https:// one ends each attempt at the request timeout.
     */
    @Test
    void sessionTicketsStreamedWithoutEndHoldNothingPastTheRequestTimeout() throws Exception {
        TestCa.Issued server = ca.server("localhost", "DNS:localhost");
        int port = RealServer.freePort();
        Path out = Files.createTempFile(dir, "s_server", ".txt");
        Process streaming = new ProcessBuilder("openssl", "s_server", "-accept", "127.0.0.1:" + port, "-cert",
                server.cert().toString(), "-key", server.key().toString(), "-tls1_3", "-num_tickets", "100000000", "-www")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            SidecarWaitProcess.awaitText(out, "ACCEPT");
            Timed tls = waitOn(List.of("tls://localhost:" + port), "3s");
            assertEquals(0, tls.result().exit(), tls.result().err());
            assertWithin(Duration.ofSeconds(3), tls);
            Timed https = waitOn(List.of("https://localhost:" + port + "/"), "3s");
            assertEquals(1, https.result().exit(), https.result().err());
            assertWithin(Duration.ofSeconds(3), https);
            assertTrue(https.result().err().contains("request timed out after 1000 ms")
                    || https.result().err().contains("no answer before the overall timeout"), https.result().err());
        } finally {
            SidecarWaitProcess.endTree(streaming);
        }
    }

    /**
     * The engine fuzzed on the real process (the jar's JDK TLS, the binaries' Mbed TLS): a real server's handshake with
     * a few bytes changed, differently on each of many attempts. Every attempt fails (the transcript no longer
     * matches, or a parser refuses), none crashes the wait or outlives it, and the last line gives a reason.
     */
    @Test
    void aServersHandshakeWithBytesChangedFailsEachAttemptAndNeverTheWait() throws Exception {
        for (RealServer upstream : List.of(tls12, tls13)) {
            try (HostilePeer peer = new HostilePeer(HostilePeer.Mode.MUTATE, upstream.port)) {
                Timed run = waitEvery("20ms", List.of("https://localhost:" + peer.port + "/"), "5s");
                assertEquals(1, run.result().exit(), run.result().err());
                assertWithin(Duration.ofSeconds(5), run);
                assertTrue(!run.result().err().contains("internal error") && !run.result().err().contains("Exception"),
                        run.result().err());
                assertTrue(peer.connections() >= (SidecarWaitProcess.NATIVE ? 40 : 15), "only " + peer.connections()
                        + " handshakes: " + run.result().err());
            }
        }
    }

    @Test
    void aHandshakeDrippedAByteAtATimeEndsAtTheTimeoutOnTls12AndTls13() throws Exception {
        for (RealServer upstream : List.of(tls12, tls13)) {
            try (HostilePeer peer = new HostilePeer(HostilePeer.Mode.DRIP_ALL, upstream.port)) {
                Timed run = waitOn(List.of("https://localhost:" + peer.port + "/", "tls://localhost:" + peer.port), "3s");
                assertEquals(1, run.result().exit(), run.result().err());
                assertWithin(Duration.ofSeconds(3), run);
            }
        }
    }

    @Test
    void aChainTooLargeOrAKeyTooCostlyToCheckIsRefusedAtOnceSayingWhy() throws Exception {
        List<String> names = new ArrayList<>(List.of("DNS:localhost"));
        for (int i = 0; i < 600; i++) {
            names.add("DNS:n" + i + "-" + "x".repeat(80) + ".example"); // a 60 kB certificate: over both engines' limits
        }
        try (RealServer large = RealServer.nginxTls(ca.server("localhost", names.toArray(String[]::new)), "TLSv1.2 TLSv1.3", null).start();
             RealServer costly = RealServer.nginxTls(ca.serverWithRsaExponent("localhost", "18446744073709551557", "DNS:localhost"),
                     "TLSv1.2 TLSv1.3", null).start()) {
            Timed run = waitOn(List.of("https://localhost:" + large.port + "/", "https://localhost:" + costly.port + "/"), "2s");
            assertEquals(1, run.result().exit(), run.result().err());
            assertWithin(Duration.ofSeconds(2), run);
            String err = run.result().err();
            assertTrue(err.contains("a record or handshake message larger than this client takes")
                    || err.contains("exceeds the maximum allowed size"), err);
            assertTrue(err.contains("public exponent"), err);
        }
    }

    @Test
    void aHostilePeerStillLetsTheApplicationStartWithOnTimeoutContinue() throws Exception {
        try (HostilePeer peer = new HostilePeer(HostilePeer.Mode.DRIP_AFTER_HANDSHAKE, tls12.port)) {
            Timed run = waitOn(List.of("https://localhost:" + peer.port + "/"), "2s", "--on-timeout", "continue", "--",
                    "sh", "-c", "echo the app started");
            assertEquals(0, run.result().exit(), run.result().err());
            assertTrue(run.result().out().contains("the app started"), run.result().out() + run.result().err());
            assertWithin(Duration.ofSeconds(2), run);
        }
    }
}
