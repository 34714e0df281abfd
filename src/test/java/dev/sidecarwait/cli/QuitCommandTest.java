package dev.sidecarwait.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** `sidecar-wait quit` against a fake sidecar's quit endpoint. */
class QuitCommandTest {

    @RegisterExtension
    static WireMockExtension sidecar = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    private String url(String path) {
        return "http://localhost:" + sidecar.getPort() + path;
    }

    @Test
    void everyPostAcceptedExitsZero() {
        sidecar.stubFor(post("/quitquitquit").willReturn(aResponse().withStatus(200).withBody("OK")));
        sidecar.stubFor(post("/shutdown").willReturn(aResponse().withStatus(202)));
        CliRun run = CliRun.run(Map.of(), "quit", "--url", url("/quitquitquit"), "--url", url("/shutdown"));
        assertEquals(0, run.exit(), run.err());
        sidecar.verify(1, postRequestedFor(urlEqualTo("/quitquitquit")));
        sidecar.verify(1, postRequestedFor(urlEqualTo("/shutdown")));
        assertTrue(run.err().contains("answered HTTP 200 (OK)"), run.err());
    }

    @Test
    void aRefusalExitsOneAndASidecarAlreadyGoneIsNoError() {
        sidecar.stubFor(post("/quitquitquit").willReturn(aResponse().withStatus(500)));
        assertEquals(1, CliRun.run(Map.of(), "quit", "--url", url("/quitquitquit")).exit());
        CliRun gone = CliRun.run(Map.of(), "quit", "--url", "http://127.0.0.1:1/quitquitquit", "--timeout", "1s");
        assertEquals(0, gone.exit(), gone.err());
        assertTrue(gone.err().contains("\tinfo\tThe sidecar is already gone: POST http://127.0.0.1:1/quitquitquit: "
                + "connection refused"), gone.err());
    }

    @Test
    void theEnvironmentNamesTheUrls() {
        sidecar.stubFor(post("/quitquitquit").willReturn(aResponse().withStatus(200)));
        assertEquals(0, CliRun.run(Map.of("SIDECAR_WAIT_QUIT_URL", url("/quitquitquit")), "quit").exit());
        CliRun bad = CliRun.run(Map.of("SIDECAR_WAIT_QUIT_URL", "tcp://localhost:1"), "quit");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("SIDECAR_WAIT_QUIT_URL: 'tcp://localhost:1' is not an http:// or https:// URL"), bad.err());
    }

    @Test
    void wrapperOnlyFlagsWithoutACommandAreUsageErrors() {
        CliRun quitWithoutCommand = CliRun.run(Map.of(), "wait", "--quit-sidecar");
        assertEquals(2, quitWithoutCommand.exit());
        assertTrue(quitWithoutCommand.err().contains("give a command after --"), quitWithoutCommand.err());

        CliRun noSeparator = CliRun.run(Map.of(), "wait", "start-app");
        assertEquals(2, noSeparator.exit());
        assertTrue(noSeparator.err().contains("unexpected argument 'start-app'; put the command to run after --"),
                noSeparator.err());
    }
}
