package dev.sidecarwait.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** --mesh and SIDECAR_WAIT_MESH set every command's defaults; explicit flags and settings' own variables win. */
class MeshPresetTest {

    @RegisterExtension
    static WireMockExtension proxy = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    private final Map<String, String> env = new HashMap<>(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"));

    private String firstUrl(CliRun run) {
        String json = run.out();
        int at = json.indexOf("\"url\":\"") + 7;
        return json.substring(at, json.indexOf('"', at));
    }

    @Test
    void eachMeshHasItsReadinessUrl() {
        Map<String, String> noAdmin = Map.of();
        assertEquals("http://localhost:15020/healthz/ready", firstUrl(CliRun.run(noAdmin, "check", "--output", "json")));
        assertEquals("http://localhost:4191/ready", firstUrl(CliRun.run(noAdmin, "check", "--output", "json", "--mesh", "linkerd")));
        assertEquals("http://localhost:9901/ready", firstUrl(CliRun.run(noAdmin, "check", "--output", "json", "--mesh", "ENVOY")));
        assertEquals("http://localhost:4191/ready", firstUrl(CliRun.run(Map.of("SIDECAR_WAIT_MESH", "linkerd"), "check", "--output", "json")));
    }

    @Test
    void eachEnvoyMeshHasItsAdminApiAndLinkerdHasNone() {
        assertTrue(CliRun.run(Map.of(), "check").out().contains("envoy http://localhost:15000: "));
        assertTrue(CliRun.run(Map.of(), "check", "--mesh", "envoy").out().contains("envoy http://localhost:9901: "));
        assertTrue(!CliRun.run(Map.of(), "check", "--mesh", "linkerd").out().contains("envoy "));
    }

    @Test
    void flagsAndSpecificVariablesWinOverThePreset() {
        String url = "http://localhost:" + proxy.getPort() + "/ready";
        assertEquals(url, firstUrl(CliRun.run(env, "check", "--output", "json", "--mesh", "linkerd", "--url", url)));
        env.put("SIDECAR_WAIT_URL", url);
        env.put("SIDECAR_WAIT_MESH", "envoy");
        assertEquals(url, firstUrl(CliRun.run(env, "check", "--output", "json")));
    }

    @Test
    void linkerdTakesAny2xxAsReadyIstioOnly200() {
        proxy.stubFor(get("/ready").willReturn(aResponse().withStatus(204)));
        String url = "http://localhost:" + proxy.getPort() + "/ready";
        assertEquals(0, CliRun.run(env, "wait", "--mesh", "linkerd", "--url", url, "--timeout", "2s").exit());
        assertEquals(1, CliRun.run(env, "wait", "--url", url, "--timeout", "300ms").exit());
        assertEquals(1, CliRun.run(env, "wait", "--mesh", "linkerd", "--url", url, "--expect-status", "200", "--timeout", "300ms").exit(),
                "--expect-status wins over the preset");
    }

    @Test
    void quitUsesTheMeshsQuitUrl() {
        CliRun linkerd = CliRun.run(env, "quit", "--mesh", "linkerd", "--timeout", "1s");
        assertTrue(linkerd.err().contains("POST http://localhost:4191/shutdown"), linkerd.err());
        CliRun envoy = CliRun.run(Map.of("SIDECAR_WAIT_MESH", "envoy"), "quit", "--timeout", "1s");
        assertTrue(envoy.err().contains("POST http://localhost:9901/quitquitquit"), envoy.err());
        CliRun istio = CliRun.run(Map.of(), "quit", "--timeout", "1s");
        assertTrue(istio.err().contains("POST http://localhost:15020/quitquitquit"), istio.err());
    }

    @Test
    void anUnknownMeshIsAUsageError() {
        CliRun flag = CliRun.run(env, "wait", "--mesh", "consul");
        assertEquals(2, flag.exit());
        assertTrue(flag.err().startsWith("sidecar-wait wait: invalid value for --mesh: 'consul' is not istio, linkerd, envoy, ambient or auto"), flag.err());
        CliRun variable = CliRun.run(Map.of("SIDECAR_WAIT_MESH", "kuma"), "check");
        assertEquals(2, variable.exit());
        assertEquals("sidecar-wait check: invalid value for SIDECAR_WAIT_MESH: 'kuma' is not istio, linkerd, envoy, ambient or auto\n", variable.err());
    }
}
