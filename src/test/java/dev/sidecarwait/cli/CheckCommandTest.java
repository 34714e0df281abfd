package dev.sidecarwait.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * `check` and `wait --verbose` against WireMock stubs of pilot-agent's readiness endpoint and Envoy's admin
 * API in each state. (A stub, because no Envoy or control plane can run here.)
 */
class CheckCommandTest {

    @RegisterExtension
    static WireMockExtension agent = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    @RegisterExtension
    static WireMockExtension admin = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void pointAtTheStubs() {
        env.put("SIDECAR_WAIT_URL", "http://localhost:" + agent.getPort() + "/healthz/ready");
        env.put("SIDECAR_WAIT_ADMIN_URL", "http://localhost:" + admin.getPort());
        // WireMock's first answer can take over the default 500 ms on a busy machine; no test here is about timing
        env.put("SIDECAR_WAIT_REQUEST_TIMEOUT", "10s");
    }

    private void agentAnswers(int status, String body) {
        agent.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(status).withBody(body)));
    }

    private void envoyIs(String state, long cds, long lds, long workers) {
        admin.stubFor(get("/server_info").willReturn(aResponse().withStatus(200).withBody(
                "{\n \"version\": \"a1b2c3/1.31.0/Clean/RELEASE/BoringSSL\",\n \"state\": \"" + state + "\",\n"
                        + " \"uptime_current_epoch\": \"3s\",\n \"command_line_options\": {\"concurrency\": 2}\n}\n")));
        admin.stubFor(get(urlPathEqualTo("/stats")).willReturn(aResponse().withStatus(200).withBody(
                "cluster_manager.cds.update_success: " + cds + "\nlistener_manager.lds.update_success: " + lds
                        + "\nlistener_manager.workers_started: " + workers + "\n")));
    }

    @Test
    void liveAndReady() {
        agentAnswers(200, "");
        envoyIs("LIVE", 3, 2, 1);
        CliRun run = CliRun.run(env, "check");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("  ready      http://localhost:" + agent.getPort() + "/healthz/ready  HTTP 200  "), run.out());
        assertTrue(run.out().contains("state LIVE, CDS updates 3, LDS updates 2, workers started 1: Envoy is LIVE"), run.out());
        admin.verify(getRequestedFor(urlPathEqualTo("/stats")).withQueryParam("filter",
                com.github.tomakehurst.wiremock.client.WireMock.equalTo(
                        "^(cluster_manager\\.cds\\.update_success|listener_manager\\.lds\\.update_success|listener_manager\\.workers_started)$")));
    }

    @Test
    void preInitializingWithoutClusters() {
        agentAnswers(503, "Envoy proxy is NOT ready\nmore");
        envoyIs("PRE_INITIALIZING", 0, 0, 0);
        CliRun run = CliRun.run(env, "check");
        assertEquals(1, run.exit());
        assertTrue(run.out().contains("NOT READY  http://localhost:" + agent.getPort() + "/healthz/ready  HTTP 503"), run.out());
        assertTrue(run.out().contains("\"Envoy proxy is NOT ready\""), "first body line: " + run.out());
        assertTrue(run.out().contains("has not received its clusters (CDS) from the control plane yet"), run.out());
    }

    @Test
    void initializingWithoutListenersYet() {
        agentAnswers(503, "");
        envoyIs("INITIALIZING", 1, 0, 0);
        CliRun run = CliRun.run(env, "check");
        assertEquals(1, run.exit());
        assertTrue(run.out().contains("Envoy is up but has not received its listeners (LDS) from the control plane yet"), run.out());
    }

    @Test
    void anUnreachableAdminApiIsReportedNotAFailureOfCheck() {
        agentAnswers(200, "");
        env.put("SIDECAR_WAIT_ADMIN_URL", "http://127.0.0.1:1");
        CliRun run = CliRun.run(env, "check");
        assertEquals(0, run.exit(), "the target is ready; the admin API is only an explanation: " + run.out());
        assertTrue(run.out().contains("Envoy's admin API at http://127.0.0.1:1 is not reachable: connection refused"), run.out());
    }

    @Test
    void aRedirectToAnotherHostSaysWhereItPointedInTextAsInJson() {
        agent.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://login.example.invalid/ready")));
        env.put("SIDECAR_WAIT_ADMIN_URL", "none");
        CliRun text = CliRun.run(env, "check");
        assertEquals(1, text.exit(), text.out() + text.err());
        assertTrue(text.out().contains("  HTTP 302 (a redirect to http://login.example.invalid/ready, not followed: another host)  "),
                text.out());
        CliRun json = CliRun.run(env, "check", "--output", "json");
        assertTrue(json.out().contains("a redirect to http://login.example.invalid/ready"), json.out());
    }

    @Test
    void jsonForScripts() {
        agentAnswers(503, "not \"ready\"");
        envoyIs("INITIALIZING", 1, 0, 0);
        CliRun run = CliRun.run(env, "check", "--output", "json");
        assertEquals(1, run.exit());
        String json = run.out().strip();
        assertEquals(1, run.out().lines().count(), run.out());
        assertTrue(json.startsWith("{\"time\":\""), json);
        assertTrue(json.contains("\"ready\":false,\"targets\":[{\"url\":\"http://localhost:" + agent.getPort()
                + "/healthz/ready\",\"kind\":\"http\",\"ready\":false,\"status\":503,\"error\":\"HTTP status code 503\""), json);
        assertTrue(json.contains("\"body\":\"not \\\"ready\\\"\""), json);
        assertTrue(json.contains("\"envoy\":{\"admin\":\"http://localhost:" + admin.getPort() + "\",\"reachable\":true,"
                + "\"state\":\"INITIALIZING\",\"stats\":{\"cluster_manager.cds.update_success\":1,"
                + "\"listener_manager.lds.update_success\":0,\"listener_manager.workers_started\":0},"
                + "\"explanation\":\"Envoy is up but has not received its listeners (LDS) from the control plane yet\"}"), json);
    }

    @Test
    void aCheckOfDependenciesAloneDoesNotAskAnEnvoyItWasNotAskedAbout() {
        Map<String, String> dependencyOnly = Map.of("SIDECAR_WAIT_URL", "tcp://127.0.0.1:1");
        CliRun run = CliRun.run(dependencyOnly, "check");
        assertEquals(1, run.exit());
        assertTrue(!run.out().contains("envoy ") && !run.out().contains("admin API"), run.out());
        CliRun verbose = CliRun.run(dependencyOnly, "check", "-v");
        assertTrue(verbose.out().contains("envoy http://localhost:15000: Envoy's admin API at http://localhost:15000"), verbose.out());
        envoyIs("LIVE", 1, 1, 1);
        CliRun given = CliRun.run(Map.of("SIDECAR_WAIT_URL", "tcp://127.0.0.1:1", "SIDECAR_WAIT_ADMIN_URL",
                "http://localhost:" + admin.getPort()), "check");
        assertTrue(given.out().contains("state LIVE"), "an admin URL given is asked: " + given.out());
    }

    @Test
    void quietPrintsNothingAndTheTimeoutEndsAWatch() {
        agentAnswers(503, "");
        envoyIs("INITIALIZING", 1, 0, 0);
        CliRun quiet = CliRun.run(env, "check", "-q");
        assertEquals(1, quiet.exit());
        assertEquals("", quiet.out() + quiet.err());
        CliRun watched = assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> CliRun.run(env, "check", "--watch", "--period", "100ms", "--timeout", "500ms"));
        assertEquals(1, watched.exit(), "a watch that never sees ready ends at --timeout");
        assertTrue(watched.out().lines().filter(line -> line.endsWith("Z  NOT READY")).count() >= 2, watched.out());
        assertEquals(2, CliRun.run(env, "check", "-v", "-q").exit());
    }

    @Test
    void verbosePrintsAnswersUncut() {
        String longBody = "x".repeat(120);
        agentAnswers(503, longBody);
        envoyIs("LIVE", 1, 1, 1);
        assertTrue(CliRun.run(env, "check", "-v").out().contains("\"" + longBody + "\""));
        assertTrue(CliRun.run(env, "check").out().contains("\"" + "x".repeat(80) + "...\""));
    }

    @Test
    void watchLooksAgainUntilReady() {
        agent.stubFor(get("/healthz/ready").inScenario("start").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("ready"));
        agent.stubFor(get("/healthz/ready").inScenario("start").whenScenarioStateIs("ready")
                .willReturn(aResponse().withStatus(200)));
        env.put("SIDECAR_WAIT_ADMIN_URL", "none");
        CliRun run = CliRun.run(env, "check", "--watch", "--period", "100ms");
        assertEquals(0, run.exit(), run.out());
        assertEquals(2, run.out().lines().filter(line -> line.matches("\\S+Z  (ready|NOT READY)")).count(), run.out());
        assertTrue(!run.out().contains("envoy "), "admin API skipped with none: " + run.out());
    }

    @Test
    void waitVerboseSaysWhyEachAttemptFailed() {
        agentAnswers(503, "");
        envoyIs("INITIALIZING", 1, 0, 0);
        CliRun run = CliRun.run(env, "wait", "--timeout", "700ms", "--verbose");
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("\tdebug\tNot ready yet: http://localhost:" + agent.getPort()
                + "/healthz/ready: HTTP status code 503 (Envoy is up but has not received its listeners (LDS) from the control plane yet)"),
                run.err());
        CliRun quiet = CliRun.run(env, "wait", "--timeout", "300ms");
        assertTrue(!quiet.err().contains("\tdebug\t"), "without --verbose no line per attempt: " + quiet.err());
        String last = quiet.err().lines().reduce((first, second) -> second).orElse("");
        assertTrue(last.contains("\terror\tsidecar-wait: NOT READY before the timeout after 0.")
                && last.contains("; Envoy: Envoy is up but has not received its listeners (LDS) from the control plane yet; exit code 1"),
                "the last line always says why, once: " + quiet.err());
    }
}
