package dev.sidecarwait.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.sidecarwait.servers.RealServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The wait command end to end in-process: real sockets, a real HTTP peer, the environment as given. */
class WaitCommandTest {

    @RegisterExtension
    static WireMockExtension proxy = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    private final Map<String, String> env = new HashMap<>();

    private String ready() {
        return "http://localhost:" + proxy.getPort() + "/healthz/ready";
    }

    private void stubReady(int status) {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(status)));
    }

    @Test
    void readyAtOnceExitsZeroWithPilotAgentsLogLines() {
        stubReady(200);
        CliRun run = CliRun.run(env, "wait", "--url", ready());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tWaiting for Envoy proxy to be ready (timeout: 60 seconds)..."), run.err());
        assertTrue(run.err().contains("\tinfo\tEnvoy is ready!"), run.err());
        assertEquals("", run.out(), "stdout is left to the application");
        proxy.verify(1, getRequestedFor(urlEqualTo("/healthz/ready")));
    }

    @Test
    void readyAfter503ResetAndAHang() {
        String path = "/healthz/ready";
        // "Connection: close": the reset meets a new connection, where it is the answer (on a kept one, nothing having
        // come back, it would be taken for the server closing an idle connection and asked again, as Go's client does)
        proxy.stubFor(get(path).inScenario("start").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503).withHeader("Connection", "close")).willSetStateTo("reset"));
        proxy.stubFor(get(path).inScenario("start").whenScenarioStateIs("reset")
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)).willSetStateTo("hang"));
        proxy.stubFor(get(path).inScenario("start").whenScenarioStateIs("hang")
                .willReturn(aResponse().withStatus(200).withFixedDelay(1500)).willSetStateTo("ready"));
        proxy.stubFor(get(path).inScenario("start").whenScenarioStateIs("ready")
                .willReturn(aResponse().withStatus(200)));
        CliRun run = CliRun.run(env, "wait", "--url", ready(), "--period", "100ms", "--request-timeout", "300ms",
                "--timeout", "20s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tdebug\tNot ready yet: " + ready() + ": HTTP status code 503"), run.err());
        assertTrue(run.err().contains(": connection reset"), run.err());
        assertTrue(run.err().contains(": request timed out after 300 ms"), run.err());
        assertTrue(run.err().contains("Envoy is ready!"), run.err());
    }

    @Test
    void readyAfterTheProxyStartsListening() throws Exception {
        int port = RealServer.freePort();
        Thread late = new Thread(() -> {
            try {
                Thread.sleep(700);
                try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
                    server.accept().close();
                }
            } catch (Exception ignored) {
                // the command's exit code tells
            }
        });
        late.start();
        CliRun run = CliRun.run(env, "wait", "--url", "tcp://localhost:" + port, "--period", "100ms", "--timeout", "20s", "-v");
        late.join(5000);
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("connection refused"), "failed attempts before the listener came up: " + run.err());
    }

    @Test
    void neverReadyExitsOneWithinTheTimeoutPlusAPeriod() {
        stubReady(503);
        long start = System.nanoTime();
        CliRun run = CliRun.run(env, "wait", "--url", ready(), "--timeout", "1500ms", "--period", "500ms");
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(1, run.exit());
        assertTrue(tookMillis >= 1400 && tookMillis < 1500 + 500 + 1500, "took " + tookMillis + " ms");
        assertTrue(run.err().contains("\terror\ttimeout waiting for Envoy proxy to become ready. Last error: "
                + ready() + ": HTTP status code 503"), run.err());
    }

    /**
     * Envoy's admin API explains a proxy that is not ready: it is asked when the proxy's endpoint is awaited or its URL
     * is given, never for a wait on dependencies alone (its answer would be about a proxy nobody waited for, and
     * asked after the timeout).
     */
    @Test
    void envoysAdminApiIsAskedOnlyAboutAProxyAwaitedOrWhenItsUrlIsGiven() {
        proxy.stubFor(get("/server_info").willReturn(aResponse().withStatus(200).withBody("{\"state\": \"LIVE\"}")));
        String admin = "http://127.0.0.1:" + proxy.getPort();
        CliRun dependency = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "300ms", "-v");
        assertEquals(1, dependency.exit(), dependency.err());
        assertTrue(!dependency.err().contains("Envoy"), "no word about Envoy: " + dependency.err());

        // the request timeout, of which the diagnosis gets half, is WireMock's first answer on a cold JVM
        CliRun given = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--admin-url", admin, "--timeout", "300ms",
                "--request-timeout", "10s");
        assertTrue(given.err().contains("Envoy: Envoy is LIVE"), given.err());

        stubReady(503);
        CliRun proxyAwaited = CliRun.run(env, "wait", "--url", ready(), "--mesh", "envoy", "--admin-url", admin,
                "--timeout", "300ms", "--request-timeout", "10s");
        assertTrue(proxyAwaited.err().contains("Envoy: Envoy is LIVE"), proxyAwaited.err());
        proxy.verify(2, getRequestedFor(urlEqualTo("/server_info")));
    }

    @Test
    void theDefaultPeriodIs250MillisecondsAndThePilotAgentPaceIsOneFlagAway() {
        // On a fake clock: sleeping advances it at once, so the count of attempts is exact.
        CliRun quick = CliRun.run(env, new dev.sidecarwait.FakeClock(), "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1s", "-v");
        assertEquals(1, quick.exit());
        assertEquals(4, quick.err().lines().filter(line -> line.contains("Not ready yet")).count(), quick.err());
        CliRun pilotAgent = CliRun.run(env, new dev.sidecarwait.FakeClock(), "wait", "--url", "tcp://127.0.0.1:1",
                "--timeout", "1s", "--periodMillis", "500", "-v");
        assertEquals(2, pilotAgent.err().lines().filter(line -> line.contains("Not ready yet")).count(), pilotAgent.err());
    }

    @Test
    void onTimeoutContinueWarnsAndExitsZero() {
        stubReady(503);
        CliRun run = CliRun.run(env, "wait", "--url", ready(), "--timeout", "300ms", "--on-timeout", "continue");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\twarn\ttimeout waiting for Envoy proxy"), run.err());
        env.put("SIDECAR_WAIT_ON_TIMEOUT", "continue");
        assertEquals(0, CliRun.run(env, "wait", "--url", ready(), "--timeout", "300ms").exit());
        assertEquals(1, CliRun.run(env, "wait", "--url", ready(), "--timeout", "300ms", "--on-timeout", "fail").exit());
    }

    @Test
    void everyTargetMustBeReadyAndEachUnreadyOneIsNamed() throws IOException {
        stubReady(200);
        int closed = RealServer.freePort();
        try (ServerSocket db = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            CliRun ok = CliRun.run(env, "wait", "--url", ready(), "--url", "tcp://127.0.0.1:" + db.getLocalPort());
            assertEquals(0, ok.exit(), ok.err());
        }
        CliRun late = CliRun.run(env, "wait", "--url", ready(), "--url", "tcp://127.0.0.1:" + closed, "--timeout", "500ms");
        assertEquals(1, late.exit());
        assertTrue(late.err().contains("Last error: tcp://127.0.0.1:" + closed + ": connection refused"), late.err());
        assertTrue(!late.err().contains(ready() + ":"), "the ready target is not blamed: " + late.err());
    }

    @Test
    void pilotAgentFlagFormsWork() {
        stubReady(503);
        CliRun run = CliRun.run(env, "wait", "--url", ready(), "--timeoutSeconds", "1", "--periodMillis", "200",
                "--requestTimeoutMillis", "100");
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("(timeout: 1 seconds)"), run.err());
        CliRun equals = CliRun.run(env, "wait", "--url=" + ready(), "--timeoutSeconds=1", "--periodMillis=200");
        assertEquals(1, equals.exit(), equals.err());
    }

    @Test
    void theEnvironmentSetsEverythingAndFlagsWin() {
        stubReady(200);
        env.put("SIDECAR_WAIT_URL", ready());
        env.put("SIDECAR_WAIT_TIMEOUT", "2s");
        env.put("SIDECAR_WAIT_PERIOD", "100ms");
        env.put("SIDECAR_WAIT_REQUEST_TIMEOUT", "200ms");
        CliRun fromEnv = CliRun.run(env, "wait");
        assertEquals(0, fromEnv.exit(), fromEnv.err());
        assertTrue(fromEnv.err().contains("(timeout: 2 seconds)"), fromEnv.err());

        CliRun flagWins = CliRun.run(env, "wait", "--timeoutSeconds", "3");
        assertTrue(flagWins.err().contains("(timeout: 3 seconds)"), flagWins.err());

        env.put("SIDECAR_WAIT_URL", "tcp://127.0.0.1:1");
        CliRun urlFlagWins = CliRun.run(env, "wait", "--url", ready());
        assertEquals(0, urlFlagWins.exit(), urlFlagWins.err());
    }

    @Test
    void severalUrlsFromTheEnvironment() throws IOException {
        stubReady(200);
        try (ServerSocket db = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            env.put("SIDECAR_WAIT_URL", ready() + ", tcp://127.0.0.1:" + db.getLocalPort());
            CliRun run = CliRun.run(env, "wait", "--timeout", "2s");
            assertEquals(0, run.exit(), run.err());
        }
        env.put("SIDECAR_WAIT_URL", ready() + ",tcp://127.0.0.1:" + RealServer.freePort());
        assertEquals(1, CliRun.run(env, "wait", "--timeout", "300ms").exit());
    }

    @Test
    void disabledSkipsTheWaitAndSaysSo() {
        env.put("SIDECAR_WAIT_DISABLED", "true");
        CliRun run = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1h");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("SIDECAR_WAIT_DISABLED is true: not waiting for tcp://127.0.0.1:1\n"), run.err());
    }

    @Test
    void skipOutsideKubernetesDependsOnKubernetesServiceHost() {
        CliRun laptop = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1h", "--skip-outside-kubernetes");
        assertEquals(0, laptop.exit(), laptop.err());
        assertTrue(laptop.err().contains("KUBERNETES_SERVICE_HOST is unset): not waiting for tcp://127.0.0.1:1\n"), laptop.err());

        env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        CliRun pod = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "300ms", "--skip-outside-kubernetes");
        assertEquals(1, pod.exit(), "inside Kubernetes it waits: " + pod.err());
    }

    @Test
    void quietLeavesOnlyErrorsAndJsonIsOneObjectALine() {
        stubReady(200);
        assertEquals("", CliRun.run(env, "wait", "--url", ready(), "--quiet").err());

        CliRun json = CliRun.run(env, "wait", "--url", ready(), "--log-format", "json");
        assertEquals(0, json.exit());
        json.err().lines().forEach(line -> assertTrue(
                line.matches("\\{\"time\":\"[^\"]+Z\",\"level\":\"(info|debug|warn|error)\",\"msg\":\".*\"}"), line));
        assertTrue(json.err().contains("\"msg\":\"Envoy is ready!\""), json.err());

        env.put("SIDECAR_WAIT_LOG_FORMAT", "json");
        assertTrue(CliRun.run(env, "wait", "--url", ready()).err().startsWith("{\"time\""));
    }

}
