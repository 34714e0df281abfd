package dev.sidecarwait.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sidecarwait.Clock;
import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.mesh.EnvoyListeners;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * drain --source envoy|both against a loopback server that answers like Envoy's admin API. Envoy itself cannot
 * be installed here; the /stats text copies Envoy's layout ("name: value" a line, as in Envoy's admin docs and
 * Istio's pkg/envoy/agent.go parsing): a listener's count, per-worker copies, the admin listener, and the http.*
 * counts of the same connections.
 */
@Tag("own-network")
class DrainEnvoySourceTest {

    @TempDir
    Path dir;

    private HttpServer admin;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger statsReads = new AtomicInteger();

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.stop(0);
        }
    }

    /** {@code stats} gives the /stats body for the n-th read (from 1). */
    private String startAdmin(IntFunction<String> stats) throws IOException {
        admin = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        admin.createContext("/", exchange -> {
            String request = exchange.getRequestMethod() + " " + exchange.getRequestURI();
            requests.add(request);
            String body;
            int status = 200;
            if (request.equals("GET " + EnvoyListeners.STATS)) {
                body = stats.apply(statsReads.incrementAndGet());
            } else if (request.equals("POST " + EnvoyListeners.GRACEFUL_DRAIN)) {
                body = "OK\n";
            } else {
                status = 404;
                body = "invalid path\n";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=UTF-8");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        admin.start();
        return "http://127.0.0.1:" + admin.getAddress().getPort();
    }

    /** Envoy's /stats?usedonly&filter=downstream_cx_active$ for an Istio sidecar with {@code inbound} connections. */
    static String envoyStats(int inbound) {
        int onWorker0 = (inbound + 1) / 2;
        return "http.admin.downstream_cx_active: 1\n"
                + "http.inbound_0.0.0.0_15006.downstream_cx_active: " + inbound + "\n"
                + "listener.0.0.0.0_15006.downstream_cx_active: " + inbound + "\n"
                + "listener.0.0.0.0_15006.worker_0.downstream_cx_active: " + onWorker0 + "\n"
                + "listener.0.0.0.0_15006.worker_1.downstream_cx_active: " + (inbound - onWorker0) + "\n"
                + "listener.0.0.0.0_15021.downstream_cx_active: 1\n"
                + "listener.0.0.0.0_15021.worker_0.downstream_cx_active: 1\n"
                + "listener.0.0.0.0_15090.downstream_cx_active: 1\n"
                + "listener.admin.downstream_cx_active: 1\n"
                + "listener.admin.main_thread.downstream_cx_active: 1\n"
                + "listener.envoy_internal_inbound_tunnel.downstream_cx_active: 3\n";
    }

    private record Run(int exit, String err) {
        long lines(String text) {
            return err.lines().filter(line -> line.contains(text)).count();
        }
    }

    private Run drain(String... args) {
        return drainCounting(-1, args);
    }

    /** As drain, with {@code appPort} (a listener the test opened) left to count. */
    private Run drainCounting(int appPort, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("drain"));
        List<String> excluded;
        try {
            excluded = DrainCommandTest.alreadyListening(); // the fake admin API's port among them
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        for (int i = 0; i < excluded.size(); i += 2) {
            if (!excluded.get(i + 1).equals(Integer.toString(appPort))) {
                all.addAll(excluded.subList(i, i + 2));
            }
        }
        all.addAll(List.of(args));
        int exit = Cli.run(new Context(Map.of(), Clock.SYSTEM, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8)), all.toArray(String[]::new));
        return new Run(exit, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void countsThatFallToZeroEndTheDrainWithOneLinePerChange() throws Exception {
        String url = startAdmin(read -> envoyStats(read <= 3 ? 2 : read <= 6 ? 1 : 0));
        Run run = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "100ms", "--timeout", "20s");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tDraining (source: envoy): waiting until Envoy's listeners at " + url
                + " carry no downstream connection (admin and internal listeners and those on port 15021, 15090, "), run.err());
        assertTrue(run.err().contains(" left out; the pod's sockets if Envoy has no such stats); at least 0 seconds, "
                + "looking every 0.1 seconds, at most 20 seconds...\n"), run.err());
        assertEquals(1, run.lines("\tinfo\tStill open: listener 0.0.0.0_15006: 2 connections"), run.err());
        assertEquals(1, run.lines("\tinfo\tStill open: listener 0.0.0.0_15006: 1 connection"), run.err());
        assertEquals(2, run.lines("Still open"), "one line a change, not one a poll: " + run.err());
        assertTrue(run.err().matches("(?s).*\tinfo\tDrained after \\d+\\.\\d s: Envoy's listeners at " + java.util.regex.Pattern.quote(url)
                + " carry no downstream connection\n.*"), run.err());
        assertEquals(7, statsReads.get());
    }

    @Test
    void verboseAddsALineAPoll() throws Exception {
        String url = startAdmin(read -> envoyStats(read <= 4 ? 2 : 0));
        Run run = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "100ms", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertEquals(1, run.lines("\tinfo\tStill open: listener 0.0.0.0_15006: 2 connections"), run.err());
        assertEquals(3, run.lines("\tdebug\tStill open: listener 0.0.0.0_15006: 2 connections"), run.err());
    }

    @Test
    void theTimeoutNamesTheListenersStillHoldingOn() throws Exception {
        String url = startAdmin(read -> envoyStats(3));
        Run run = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "100ms", "--timeout", "700ms");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("\terror\tGave up after 0.7 s; still open: listener 0.0.0.0_15006: 3 connections"),
                run.err());
    }

    @Test
    void missingStatsAreSaidOnceAndNeverTakenForZero() throws Exception {
        String adminOnly = "http.admin.downstream_cx_active: 1\nlistener.admin.downstream_cx_active: 1\n"
                + "listener.admin.main_thread.downstream_cx_active: 1\n";
        String url = startAdmin(read -> adminOnly);
        try (ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Run run = drainCounting(app.getLocalPort(), "--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "100ms", "--timeout", "800ms");
            assertEquals(1, run.exit(), "no stats is not zero connections: /proc still sees the app: " + run.err());
            assertEquals(1, run.lines("\twarn\tEnvoy reports no downstream_cx_active for its listeners"), run.err());
            assertTrue(run.err().contains("still open: port " + app.getLocalPort() + " LISTEN"), run.err());
        }
        Run closed = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "100ms", "--timeout", "5s");
        assertEquals(0, closed.exit(), "with the app gone, /proc says drained: " + closed.err());
        assertTrue(closed.err().contains(": no application socket is listening (Envoy reports no downstream_cx_active, so "
                + "the pod's sockets decided)\n"), "the last line names what decided: " + closed.err());
        assertFalse(closed.err().contains("Drained after 0.0 s: Envoy's listeners"), closed.err());
    }

    @Test
    void anAdminApiThatDisappearsKeepsTheDrainGoingWhileTheProxyRuns() throws Exception {
        String url = startAdmin(read -> {
            if (read == 3) {
                new Thread(() -> admin.stop(0)).start(); // Envoy's admin API goes away mid-drain
            }
            return envoyStats(1);
        });
        Run run = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "200ms", "--timeout", "2s");
        assertEquals(1, run.exit(), run.err());
        assertEquals(1, run.lines("\twarn\tStill open: unknown: Envoy's admin API at " + url + " is not answering: connection refused"),
                run.err());
        assertTrue(run.err().contains("\terror\tGave up after 2.0 s; still open: unknown: Envoy's admin API at " + url),
                run.err());
    }

    @Test
    void anAdminApiThatDisappearsWithItsProcessEndsTheDrain() throws Exception {
        // A real process named envoy (a copy of sleep), seen in /proc while the admin API answers.
        Path envoy = dir.resolve("envoy");
        Files.copy(Path.of("/bin/sleep"), envoy, StandardCopyOption.COPY_ATTRIBUTES);
        Process proxy = new ProcessBuilder(envoy.toString(), "60").start();
        try {
            String url = startAdmin(read -> {
                if (read == 3) {
                    admin.stop(0);
                    proxy.destroy();
                    try {
                        proxy.waitFor(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return envoyStats(1);
            });
            Run run = drain("--source", "envoy", "--admin-url", url, "--min", "0s", "--period", "200ms", "--timeout", "10s");
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.err().contains("\tinfo\tEnvoy's admin API stopped answering ("), run.err());
            assertTrue(run.err().contains(") and the proxy process has exited: nothing is left to drain through it"), run.err());
        } finally {
            SidecarWaitProcess.endTree(proxy);
        }
    }

    @Test
    void theGracefulDrainRequestGoesOutBeforeTheFirstCount() throws Exception {
        String url = startAdmin(read -> envoyStats(0));
        Run run = drain("--source", "envoy", "--admin-url", url, "--graceful-envoy", "--min", "0s");
        assertEquals(0, run.exit(), run.err());
        assertEquals("POST " + EnvoyListeners.GRACEFUL_DRAIN, requests.get(0));
        assertEquals("GET " + EnvoyListeners.STATS, requests.get(1));
        assertTrue(run.err().contains("\tinfo\tAsked Envoy to drain its inbound listeners gracefully"), run.err());
    }

    /**
     * The preStop for a native istio-proxy: Envoy is asked nothing while the app still listens or holds a
     * connection on its port (its requests, and its outbound calls, still need the proxy: istio/istio#60649,
     * #51855); once the app has closed both, the inbound-only graceful drain, and only it, goes out.
     */
    @Test
    void theNativeSidecarPreStopAsksEnvoyOnlyOnceTheAppHasLetGo() throws Exception {
        String url = startAdmin(read -> envoyStats(0));
        java.net.ServerSocket app = new java.net.ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        java.net.Socket client = new java.net.Socket("127.0.0.1", app.getLocalPort());
        java.net.Socket served = app.accept();
        java.util.concurrent.atomic.AtomicLong letGoAt = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.CompletableFuture<Run> drained = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                drainCounting(app.getLocalPort(), "--port", Integer.toString(app.getLocalPort()), "--graceful-envoy-after",
                        "--admin-url", url, "--min", "0s", "--period", "100ms", "--timeout", "20s"));
        Thread.sleep(1500);
        assertEquals(List.of(), requests, "Envoy is asked nothing while the app listens and serves");
        app.close();
        Thread.sleep(500);
        assertEquals(List.of(), requests, "nor while a connection on the app's port is open");
        letGoAt.set(System.nanoTime());
        served.close();
        client.close();
        Run run = drained.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("POST " + EnvoyListeners.GRACEFUL_DRAIN), requests, run.err());
        assertTrue(run.err().contains("; then asking Envoy to drain its inbound listeners..."), run.err());
        assertTrue(run.err().matches("(?s).*\tinfo\tDrained after .*\n.*\tinfo\tAsked Envoy to drain its inbound "
                + "listeners gracefully \\(POST /drain_listeners\\?inboundonly&graceful: HTTP 200\\)\n.*"), run.err());
    }

    @Test
    void aGracefulDrainEnvoyRefusesAfterwardsFailsThePreStop() throws Exception {
        admin = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
        admin.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        admin.start();
        Run run = drain("--port", "1", "--graceful-envoy-after", "--admin-url", "http://127.0.0.1:" + admin.getAddress().getPort(),
                "--min", "0s", "--period", "100ms");
        assertEquals(1, run.exit(), run.err());
        assertEquals(List.of("POST " + EnvoyListeners.GRACEFUL_DRAIN), requests);
        assertTrue(run.err().contains("\twarn\tEnvoy refused to drain its inbound listeners: POST "
                + EnvoyListeners.GRACEFUL_DRAIN + " answered HTTP 503"), run.err());
    }

    @Test
    void bothWaitsForEnvoyAndForTheSockets() throws Exception {
        String url = startAdmin(read -> envoyStats(0));
        ServerSocket app = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread closer = new Thread(() -> {
            try {
                Thread.sleep(600);
                app.close();
            } catch (Exception ignored) {
                // the drain's exit code tells
            }
        });
        closer.start();
        Run run = drainCounting(app.getLocalPort(), "--source", "both", "--admin-url", url, "--min", "0s",
                "--period", "100ms", "--timeout", "10s");
        closer.join();
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tStill open: port " + app.getLocalPort() + " LISTEN"),
                "Envoy said 0, the socket held: " + run.err());
        assertTrue(statsReads.get() >= 2, "Envoy was asked at every look");
    }

    @Test
    void aMeshWithoutEnvoyNeedsAnAdminUrl() {
        Run run = drain("--mesh", "linkerd", "--source", "envoy");
        assertEquals(2, run.exit());
        assertEquals("sidecar-wait drain: --source envoy needs Envoy's admin API, and the linkerd preset has none (its "
                + "proxy is not Envoy); give its URL with --admin-url", run.err().strip());
    }

    @Test
    void anAdminApiTurnedOffIsNamedAsSuchNotBlamedOnTheMesh() {
        Run flag = drain("--graceful-envoy", "--admin-url", "none");
        assertEquals(2, flag.exit());
        assertEquals("sidecar-wait drain: --graceful-envoy needs Envoy's admin API, and --admin-url none turns it off; "
                + "give its URL with --admin-url", flag.err().strip());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run(new Context(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"), Clock.SYSTEM,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8)),
                "drain", "--source", "both");
        assertEquals(2, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("and SIDECAR_WAIT_ADMIN_URL=none turns it off;"), err.toString());
    }

    @Test
    void parsingKeepsOnlyApplicationListeners() {
        assertEquals(Map.of("0.0.0.0_15006", 2L), EnvoyListeners.activeConnections(envoyStats(2), Set.of(15021, 15090)));
        assertEquals(Map.of("[__]_8080", 0L, "0.0.0.0_15001", 4L),
                EnvoyListeners.activeConnections("listener.[__]_8080.downstream_cx_active: 0\n"
                        + "listener.0.0.0.0_15001.downstream_cx_active: 4\nnot a stat line\n", Set.of()));
        assertTrue(EnvoyListeners.activeConnections("", Set.of()).isEmpty());
    }
}
