package dev.sidecarwait.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpTableRow;
import dev.sidecarwait.sockets.TcpState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * `sidecar-wait drain` on a real socket table, with sockets the test opens and closes: the table of a network namespace
 * of the test's own (the own-network tag: scripts/own-network/bin/java), which nothing else on the machine shows in, as a
 * pod's. Whatever listens there before a test (nothing, unless a test left it) is excluded by port.
 */
@Tag("own-network")
class DrainCommandTest {

    private final List<String> preExisting = new ArrayList<>();

    @BeforeEach
    void excludeWhatAlreadyListens() throws Exception {
        preExisting.addAll(alreadyListening());
    }

    @Test
    void theTableIsThisTestsOwn() throws Exception {
        List<TcpTableRow> listening = new ProcNetTcp(Path.of("/proc")).read().stream()
                .filter(socket -> socket.state() == TcpState.LISTEN).toList();
        assertEquals(List.of(), listening, "a network namespace of its own: nothing listens in it but what a test opens");
    }

    /** "--exclude-port P" for every port something on this machine listens on now. */
    static List<String> alreadyListening() throws IOException {
        List<String> args = new ArrayList<>();
        for (TcpTableRow socket : new ProcNetTcp(Path.of("/proc")).read()) {
            if (socket.state() == TcpState.LISTEN) {
                args.add("--exclude-port");
                args.add(Integer.toString(socket.localPort()));
            }
        }
        return args;
    }

    private record Run(int exit, String err, long millis) {
    }

    private Run drain(String... args) {
        return drain(Map.of(), args);
    }

    private Run drain(Map<String, String> env, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("drain"));
        all.addAll(List.of(args));
        long start = System.nanoTime();
        int exit = Cli.run(new Context(env, Clock.SYSTEM, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8)), all.toArray(String[]::new));
        return new Run(exit, err.toString(StandardCharsets.UTF_8), (System.nanoTime() - start) / 1_000_000);
    }

    private String[] withPreExisting(String... args) {
        List<String> all = new ArrayList<>(preExisting);
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void anOpenListenerHoldsTheDrainUntilTheTimeoutAndIsNamed(String address) throws Exception {
        try (ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName(address))) {
            Run run = drain(withPreExisting("--min", "0s", "--timeout", "1500ms", "--period", "200ms"));
            assertEquals(1, run.exit(), run.err());
            assertTrue(run.err().contains("\terror\tGave up after 1.5 s; still open: port " + app.getLocalPort()
                    + " LISTEN (java pid " + ProcessHandle.current().pid() + ")"), run.err());
        }
    }

    @Test
    void aListenerClosedMidWaitEndsTheDrain() throws Exception {
        ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        CompletableFuture.runAsync(() -> {
            sleep(800);
            close(app);
        });
        Run run = drain(withPreExisting("--min", "0s", "--timeout", "20s", "--period", "100ms", "--verbose"));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tdebug\tStill open: port " + app.getLocalPort() + " LISTEN"), run.err());
        assertTrue(run.err().contains("Drained after"), run.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void withAPortAnEstablishedConnectionHoldsTheDrainAfterTheListenerHasGone(String address) throws Exception {
        ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName(address));
        int port = app.getLocalPort();
        Socket client = new Socket(InetAddress.getByName(address), port);
        Socket served = app.accept();
        app.close(); // the app stopped accepting, but a request is still in flight
        CompletableFuture.runAsync(() -> {
            sleep(800);
            close(served);
            close(client);
        });
        Run run = drain("--port", Integer.toString(port), "--min", "0s", "--timeout", "20s", "--period", "100ms", "-v");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("Still open: port " + port + " 1 ESTABLISHED (java pid "), run.err());
        assertTrue(!run.err().contains("Still open: port " + port + " LISTEN"), "the listener was already closed: " + run.err());
    }

    @Test
    void theProxysOwnSocketsNeverCount() throws Exception {
        try (ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            // Seen as a process named "java": excluded when java is named as the proxy.
            Run byProcess = drain(withPreExisting("--min", "0s", "--timeout", "2s", "--exclude-process", "envoy,java"));
            assertEquals(0, byProcess.exit(), byProcess.err());
            String self = "java pid " + ProcessHandle.current().pid();
            assertTrue(byProcess.err().contains(": only excluded processes have a listening socket (")
                    && byProcess.err().contains(self), byProcess.err());

            Run onItsPort = drain("--port", Integer.toString(app.getLocalPort()), "--min", "0s", "--timeout", "2s",
                    "--exclude-process", "java");
            assertEquals(0, onItsPort.exit(), onItsPort.err());
            assertTrue(onItsPort.err().contains(": only excluded processes are listening or connected on port "
                    + app.getLocalPort() + " (" + self + ")"), onItsPort.err());
        }
    }

    @Test
    void theAppsOwnHookHoldsForMinWithItsPortExcluded() throws Exception {
        try (ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Run run = drain(withPreExisting("--min", "500ms", "--timeout", "10s", "--exclude-port",
                    Integer.toString(app.getLocalPort())));
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.millis() >= 500, "held " + run.millis() + " ms");
        }
    }

    @Test
    void minHoldsEvenWhenNothingIsOpen() {
        Run run = drain(withPreExisting("--min", "1s", "--timeout", "10s", "--period", "200ms"));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.millis() >= 1000, "held " + run.millis() + " ms");
        assertTrue(run.err().contains("\tinfo\tDraining (source: proc): waiting until no application socket is listening; "
                + "at least 1 second, looking every 0.2 seconds, at most 10 seconds..."), run.err());
    }

    @Test
    void theEnvironmentSetsTheDurationsAndFlagsWin() {
        Run fromEnv = drain(Map.of("SIDECAR_WAIT_DRAIN_MIN", "600ms", "SIDECAR_WAIT_DRAIN_TIMEOUT", "5s",
                "SIDECAR_WAIT_DRAIN_PERIOD", "100ms"), withPreExisting());
        assertEquals(0, fromEnv.exit(), fromEnv.err());
        assertTrue(fromEnv.err().contains("; at least 0.6 seconds, looking every 0.1 seconds, at most 5 seconds..."), fromEnv.err());
        assertTrue(fromEnv.millis() >= 600, "held " + fromEnv.millis() + " ms");

        Run flagWins = drain(Map.of("SIDECAR_WAIT_DRAIN_MIN", "1h"), withPreExisting("--min", "0s", "--timeout", "2s"));
        assertEquals(0, flagWins.exit(), flagWins.err());

        Run bad = drain(Map.of("SIDECAR_WAIT_DRAIN_TIMEOUT", "soon"), "--min", "0s");
        assertEquals(2, bad.exit());
        assertEquals("sidecar-wait drain: invalid value for SIDECAR_WAIT_DRAIN_TIMEOUT: 'soon' is not a duration "
                + "(use a number and a unit: 500ms, 90s, 2m, 1h)\n", bad.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--port 0 | --port: '0' is not a port",
            "--port 70000 | --port: '70000' is not a port",
            "--port http | --port: 'http'",
            "--exclude-port -1 | --exclude-port: '-1' is not a port",
            "--min soon | --min: 'soon' is not a duration",
            "--timeout 0s | --timeout: '0s' must be more than zero",
            "--period -1s | --period: '-1s' is negative",
            "--min 5s --timeout 2s | --timeout (2s) must not be shorter than --min (5s)",
            "--bogus | unknown option: '--bogus'"})
    void badInputIsOneLineAndExitTwo(String args, String message) {
        Run run = drain(args.split(" "));
        assertEquals(2, run.exit(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("sidecar-wait drain: "), run.err());
        assertTrue(run.err().contains(message), run.err());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void close(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // the drain's exit code tells whether it closed
        }
    }
}
