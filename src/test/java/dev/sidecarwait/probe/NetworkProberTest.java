package dev.sidecarwait.probe;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.servers.RealServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One probe against a real HTTP peer (WireMock) and against real loopback sockets. */
class NetworkProberTest {

    @RegisterExtension
    static WireMockExtension proxy = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

    private ProbeResult probe(String url, long timeoutMillis) {
        return prober.probe(Target.parse(url), Timeout.of(Duration.ofMillis(timeoutMillis)));
    }

    private String url(String path) {
        return "http://localhost:" + proxy.getPort() + path;
    }

    @Test
    void readyOn200AndKeepsTheFirstBodyLine() {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200).withBody("LIVE\nsecond line")));
        ProbeResult result = probe(url("/healthz/ready"), 500);
        assertTrue(result.ready(), result.detail());
        assertEquals(200, result.status());
        assertEquals("LIVE", result.bodyLine());
        proxy.verify(1, getRequestedFor(urlEqualTo("/healthz/ready")));
    }

    @Test
    void notReadyOn503WithPilotAgentsWording() {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(503).withBody("not ready")));
        ProbeResult result = probe(url("/healthz/ready"), 500);
        assertFalse(result.ready());
        assertEquals("HTTP status code 503", result.detail());
        assertEquals("not ready", result.bodyLine());
    }

    @Test
    void expectedStatusDecides() {
        proxy.stubFor(get("/ready").willReturn(aResponse().withStatus(204)));
        assertFalse(probe(url("/ready"), 500).ready());
        NetworkProber anyTwoHundred = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200-299"), TlsSettings.unused());
        assertTrue(anyTwoHundred.probe(Target.parse(url("/ready")), Timeout.of(Duration.ofMillis(500))).ready());
    }

    @Test
    void aLargeChunkedBodyIsReadAndDiscarded() {
        String big = "x".repeat(200_000);
        proxy.stubFor(get("/stats").willReturn(aResponse().withStatus(200).withBody("first\n" + big)
                .withHeader("Transfer-Encoding", "chunked")));
        ProbeResult result = probe(url("/stats"), 2000);
        assertTrue(result.ready(), result.detail());
        assertEquals("first", result.bodyLine());
    }

    @Test
    void aHangPastTheRequestTimeoutIsATimeout() {
        proxy.stubFor(get("/slow").willReturn(aResponse().withStatus(200).withFixedDelay(3000)));
        long start = System.nanoTime();
        ProbeResult result = probe(url("/slow"), 200);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertFalse(result.ready());
        assertEquals("request timed out after 200 ms", result.detail());
        assertTrue(tookMillis < 2500, "gave up after " + tookMillis + " ms, not near the 3 s the server hangs");
    }

    /** A peer that reads the request and resets the connection (SO_LINGER 0, then close: an RST, no FIN). */
    @Test
    void aResetIsReported() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Thread peer = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    s.setSoLinger(true, 0);
                } catch (IOException closedByTheProbe) {
                    // the probe may hang up first
                }
            });
            peer.start();
            ProbeResult result = probe("http://127.0.0.1:" + server.getLocalPort() + "/reset", 5000);
            assertFalse(result.ready());
            assertEquals("connection reset", result.detail());
            peer.join(5000);
        }
    }

    /** A peer that reads the request and closes without a byte (a plain socket: WireMock's fault took over 1 s under load). */
    @Test
    void anEmptyResponseIsReported() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Thread peer = serveOnce(server, out -> { });
            ProbeResult result = probe("http://127.0.0.1:" + server.getLocalPort() + "/empty", 5000);
            assertFalse(result.ready());
            assertEquals("connection closed before a response", result.detail());
            peer.join(5000);
        }
    }

    @Test
    void garbageIsNotMistakenForHttp() {
        proxy.stubFor(get("/garbage").willReturn(aResponse().withFault(Fault.RANDOM_DATA_THEN_CLOSE)));
        assertFalse(probe(url("/garbage"), 1000).ready());
    }

    @Test
    void aClosedPortIsRefused() throws IOException {
        int port = RealServer.freePort();
        ProbeResult result = probe("http://localhost:" + port + "/healthz/ready", 500);
        assertFalse(result.ready());
        assertEquals("connection refused", result.detail());
        assertEquals("connection refused", probe("tcp://127.0.0.1:" + port, 500).detail());
    }

    @Test
    void localhostReachesAnEndpointListeningOnlyOnIpv6Loopback() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            Thread responder = answerOnce(server, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            ProbeResult result = probe("http://localhost:" + server.getLocalPort() + "/healthz/ready", 2000);
            responder.join(5000);
            assertTrue(result.ready(), result.detail());
            assertEquals("ok", result.bodyLine());
        }
    }

    @Test
    void localhostReachesAnEndpointListeningOnlyOnIpv4Loopback() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            Thread responder = answerOnce(server, "HTTP/1.0 200 OK\r\n\r\nbody until close");
            ProbeResult result = probe("http://localhost:" + server.getLocalPort() + "/", 2000);
            responder.join(5000);
            assertTrue(result.ready(), result.detail());
            assertEquals("body until close", result.bodyLine());
        }
    }

    @Test
    void tcpIsReadyWhenTheConnectionIsAccepted() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            ProbeResult result = probe("tcp://localhost:" + server.getLocalPort(), 500);
            assertTrue(result.ready(), result.detail());
        }
    }

    @Test
    void theRequestIsPlainHttp11WithHostAndKeepsTheConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            StringBuilder seen = new StringBuilder();
            Thread responder = new Thread(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[4096];
                    int n = in.read(buf);
                    seen.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    seen.append("server failed: ").append(e);
                }
            });
            responder.start();
            assertTrue(probe("http://localhost:" + server.getLocalPort() + "/healthz/ready?x=1", 2000).ready());
            responder.join(5000);
            String request = seen.toString();
            assertTrue(request.startsWith("GET /healthz/ready?x=1 HTTP/1.1\r\n"), request);
            assertTrue(request.contains("\r\nHost: localhost:" + server.getLocalPort() + "\r\n"), request);
            assertFalse(request.contains("Connection:"), request); // HTTP/1.1's default: persistent (KeptConnectionsTest)
        }
    }

    @Test
    void anEndlessBodyAfterA200IsReadyAtOnce() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            serveOnce(server, out -> {
                out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                for (int i = 0; i < 1000; i++) { // ten seconds of chunks, far past the request timeout
                    out.write(("6\r\nchunk\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    Thread.sleep(10);
                }
            });
            ProbeResult result = probe("http://localhost:" + server.getLocalPort() + "/stats/prometheus", 2000);
            assertTrue(result.ready(), result.detail());
            assertEquals("chunk", result.bodyLine()); // ready within 2 s of a 10 s body: it was not read to its end
        }
    }

    @Test
    void a200ThatKeepsTheConnectionOpenWithoutALengthIsReady() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            serveOnce(server, out -> {
                out.write("HTTP/1.1 200 OK\r\n\r\nLIVE".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                Thread.sleep(10_000);
            });
            ProbeResult result = probe("http://localhost:" + server.getLocalPort() + "/ready", 2000);
            assertTrue(result.ready(), result.detail());
            assertEquals("LIVE", result.bodyLine()); // the connection stays open for 10 s, the request timeout is 2 s
        }
    }

    @Test
    void redirectsToTheSameHostAreFollowed() {
        proxy.stubFor(get("/old").willReturn(aResponse().withStatus(301).withHeader("Location", url("/moved"))));
        proxy.stubFor(get("/moved").willReturn(aResponse().withStatus(302).withHeader("Location", "/healthz/ready?via=302")));
        proxy.stubFor(get("/healthz/ready?via=302").willReturn(aResponse().withStatus(200).withBody("LIVE")));
        ProbeResult result = probe(url("/old"), 2000);
        assertTrue(result.ready(), result.detail());
        assertEquals("LIVE", result.bodyLine());
        proxy.verify(1, getRequestedFor(urlEqualTo("/healthz/ready?via=302")));
    }

    @Test
    void aRedirectToAnotherHostIsNotFollowedAndIsItselfTheAnswer() {
        proxy.stubFor(get("/elsewhere").willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://login.example.invalid/ready")));
        ProbeResult result = probe(url("/elsewhere"), 2000);
        assertFalse(result.ready());
        assertEquals(302, result.status());
        assertEquals("HTTP status code 302 (a redirect to http://login.example.invalid/ready, not followed: another host)",
                result.detail());
        NetworkProber kubeletsRule = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200-399"), TlsSettings.unused());
        assertTrue(kubeletsRule.probe(Target.parse(url("/elsewhere")), Timeout.of(Duration.ofMillis(2000))).ready(),
                "with the kubelet's 200-399 the unfollowed redirect counts as ready, as it does for the kubelet");
    }

    @Test
    void aRedirectLoopStopsAfterTenHops() {
        proxy.stubFor(get("/loop").willReturn(aResponse().withStatus(307).withHeader("Location", "/loop")));
        ProbeResult result = probe(url("/loop"), 2000);
        assertFalse(result.ready());
        assertEquals("stopped after 10 redirects", result.detail());
        proxy.verify(10, getRequestedFor(urlEqualTo("/loop")));
    }

    private interface Serve {
        void to(OutputStream out) throws Exception;
    }

    private static Thread serveOnce(ServerSocket server, Serve serve) {
        Thread thread = new Thread(() -> {
            try (Socket s = server.accept()) {
                s.getInputStream().read(new byte[4096]);
                serve.to(s.getOutputStream());
            } catch (Exception closedByTheProbe) {
                // the probe hung up once it had what it needed
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }


    private static Thread answerOnce(ServerSocket server, String response) {
        return serveOnce(server, out -> {
            out.write(response.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        });
    }
}
