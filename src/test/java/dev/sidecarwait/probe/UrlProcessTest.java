package dev.sidecarwait.probe;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * URLs as pilot-agent's Go client takes them (#56), on the real process: a docker-compose name with '_' and an
 * internationalised name, each found in the pod's own /etc/hosts (a mount namespace with the test's hosts file over
 * it, the machine's network), and a user and password sent as Basic authentication and printed nowhere: not in the
 * log (text or JSON), check's output, the termination message, nor what --log-to-pid1 writes to PID 1 (a bash of a
 * PID namespace of its own, whose output the test keeps).
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class UrlProcessTest {

    private static final String HOSTS = "127.0.0.1 localhost my_service xn--bcher-kva.example\n";
    private static final String SECRET = "s3cr%40t";
    private static final String BASIC = "Basic " + Base64.getEncoder().encodeToString("app:s3cr@t".getBytes(StandardCharsets.UTF_8));

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    @RegisterExtension
    static WireMockExtension elsewhere = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    @TempDir
    Path pod;

    record Run(int exit, String out, String err, String pid1, String terminationLog) {
        String everything() {
            return out + err + pid1 + terminationLog;
        }
    }

    /** sidecar-wait in its own mount and PID namespaces, with the test's /etc/hosts; PID 1 is a bash that keeps its output. */
    private Run run(String... args) throws Exception {
        Files.writeString(pod.resolve("hosts"), HOSTS);
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--pid", "--fork", "--mount-proc", "bash", "-c",
                "mount --bind \"$POD/hosts\" /etc/hosts || exit 98; \"$@\" > \"$POD/out.txt\" 2> \"$POD/err.txt\"; echo $? > \"$POD/exit\"",
                "pod"));
        command.addAll(SidecarWaitProcess.builder(args).command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        builder.environment().put("POD", pod.toString());
        builder.environment().put("SIDECAR_WAIT_TERMINATION_LOG", pod.resolve("termination-log").toString());
        Files.writeString(pod.resolve("termination-log"), "");
        Process process = builder.redirectOutput(pod.resolve("pid1.txt").toFile()).redirectErrorStream(true).start();
        if (!SidecarWaitProcess.exited(process, 60)) {
            throw new AssertionError("did not finish");
        }
        assertEquals(0, process.exitValue(), Files.readString(pod.resolve("pid1.txt")));
        return new Run(Integer.parseInt(Files.readString(pod.resolve("exit")).trim()), Files.readString(pod.resolve("out.txt")),
                Files.readString(pod.resolve("err.txt")), Files.readString(pod.resolve("pid1.txt")),
                Files.readString(pod.resolve("termination-log")));
    }

    @Test
    void aDockerComposeNameWithAnUnderscoreIsLookedUpAndReached() throws Exception {
        server.stubFor(get("/health").willReturn(aResponse().withStatus(200)));
        Run run = run("wait", "--url", "http://my_service:" + server.getPort() + "/health", "--timeout", "10s");
        assertEquals(0, run.exit(), run.err());
        server.verify(getRequestedFor(urlEqualTo("/health")).withHeader("Host", equalTo("my_service:" + server.getPort())));
    }

    @Test
    void anInternationalisedNameIsLookedUpAndSentAsItsPunycode() throws Exception {
        server.stubFor(get("/").willReturn(aResponse().withStatus(200)));
        Run run = run("wait", "--url", "http://bücher.example:" + server.getPort() + "/", "--timeout", "10s");
        assertEquals(0, run.exit(), run.err());
        server.verify(getRequestedFor(urlEqualTo("/")).withHeader("Host", equalTo("xn--bcher-kva.example:" + server.getPort())));
    }

    @Test
    void aUserAndPasswordAreSentAsBasicAuthenticationAndPrintedNowhere() throws Exception {
        server.stubFor(get("/_cluster/health").withHeader("Authorization", equalTo(BASIC)).willReturn(aResponse().withStatus(200)));
        server.stubFor(get("/_cluster/health").withHeader("Authorization", absent()).willReturn(aResponse().withStatus(401)));
        String url = "http://app:" + SECRET + "@localhost:" + server.getPort() + "/_cluster/health";
        Run ready = run("wait", "--url", url, "--timeout", "10s", "--verbose", "--log-to-pid1");
        assertEquals(0, ready.exit(), ready.err());
        assertTrue(ready.everything().contains("http://***@localhost:" + server.getPort() + "/_cluster/health"), ready.everything());
        assertNoSecret(ready);
        Run check = run("check", "--url", url, "--output", "json");
        assertEquals(0, check.exit(), check.err());
        assertNoSecret(check);
    }

    @Test
    void aWaitThatFailsNamesTheUrlWithoutItsPasswordInEveryPlaceItReports() throws Exception {
        server.stubFor(get("/_cluster/health").willReturn(aResponse().withStatus(401).withBody("s3cr@t is wrong")));
        Run failed = run("wait", "--url", "http://app:" + SECRET + "@localhost:" + server.getPort() + "/_cluster/health",
                "--url", "postgres://app:" + SECRET + "@localhost:1/orders", "--timeout", "2s", "--log-format", "json", "--log-to-pid1");
        assertEquals(1, failed.exit(), failed.err());
        assertTrue(failed.terminationLog().contains("http://***@localhost:" + server.getPort()), failed.terminationLog());
        assertTrue(failed.terminationLog().contains("postgres://***@localhost:1/orders"), failed.terminationLog());
        assertFalse((failed.everything()).contains(SECRET) || failed.everything().contains(BASIC), failed.everything());
        Run check = run("check", "--url", "http://app:" + SECRET + "@localhost:" + server.getPort() + "/_cluster/health");
        assertEquals(1, check.exit(), check.err());
        assertFalse((check.everything()).contains(SECRET) || check.everything().contains(BASIC), check.everything());
    }

    @Test
    void theCredentialsFollowARedirectOnlyToTheSameSchemeHostAndPort() throws Exception {
        server.stubFor(get("/a").willReturn(aResponse().withStatus(302).withHeader("Location", "/b")));
        server.stubFor(get("/b").willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://localhost:" + elsewhere.getPort() + "/c")));
        elsewhere.stubFor(get("/c").willReturn(aResponse().withStatus(200)));
        Run run = run("wait", "--url", "http://app:" + SECRET + "@localhost:" + server.getPort() + "/a", "--timeout", "10s");
        assertEquals(0, run.exit(), run.err());
        server.verify(getRequestedFor(urlEqualTo("/b")).withHeader("Authorization", equalTo(BASIC)));
        elsewhere.verify(getRequestedFor(urlEqualTo("/c")).withHeader("Authorization", absent()));
    }

    /**
     * A long path, from the user (3,000 letters, each sent as its escape) or a peer's redirect (15,000 characters of
     * escapes), is read as any path: the check of its escapes overflowed the stack (fuzzing found it).
     */
    @Test
    void aLongPathFromTheUserOrARedirectIsReadAsAnyPath() throws Exception {
        String escaped = "/" + "%C3%A9".repeat(3000);
        server.stubFor(get(escaped).willReturn(aResponse().withStatus(200)));
        Run direct = run("wait", "--url", "http://localhost:" + server.getPort() + "/" + "\u00e9".repeat(3000), "--timeout", "10s");
        assertEquals(0, direct.exit(), direct.err());
        String redirected = "/" + "%C3%A9".repeat(2500);
        server.stubFor(get("/away").willReturn(aResponse().withStatus(302).withHeader("Location", redirected)));
        server.stubFor(get(redirected).willReturn(aResponse().withStatus(200)));
        Run followed = run("wait", "--url", "http://localhost:" + server.getPort() + "/away", "--timeout", "10s");
        assertEquals(0, followed.exit(), followed.err());
        server.verify(getRequestedFor(urlEqualTo(redirected)));
    }

    private static void assertNoSecret(Run run) {
        assertFalse(run.everything().contains(SECRET) || run.everything().contains("s3cr@t") || run.everything().contains(BASIC),
                run.everything());
    }
}
