package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.Timeout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A wait's attempts at one HTTP target share a connection while the server keeps it, as pilot-agent's Go client does,
 * against a real loopback server that counts its connections and requests: a server that closes it, says so, or
 * answers with more than a probe reads gets a new one, and the end of the wait closes it.
 */
class KeptConnectionsTest {

    private static final String NOT_READY = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 9\r\n\r\nnot ready";

    /** An HTTP/1.1 server on loopback answering every request with {@code response}; closes after each when asked. */
    private static final class CountingServer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        final CountDownLatch hungUp = new CountDownLatch(1);

        CountingServer(String response, boolean closeAfterEach) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            Thread acceptor = new Thread(() -> {
                while (true) {
                    try {
                        Socket connection = socket.accept();
                        connections.incrementAndGet();
                        Thread serving = new Thread(() -> serve(connection, response, closeAfterEach));
                        serving.setDaemon(true);
                        serving.start();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void serve(Socket connection, String response, boolean closeAfterEach) {
            try (connection) {
                InputStream in = connection.getInputStream();
                while (readRequest(in)) {
                    requests.incrementAndGet();
                    connection.getOutputStream().write(response.getBytes(StandardCharsets.ISO_8859_1));
                    if (closeAfterEach) {
                        return;
                    }
                }
                hungUp.countDown(); // the client closed its end
            } catch (IOException reset) {
                hungUp.countDown();
            }
        }

        /** Reads one request's head; false at the end of the connection. */
        private static boolean readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            for (int b; (b = in.read()) >= 0; ) {
                head.write(b);
                if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    return true;
                }
            }
            return false;
        }

        String url() {
            return "http://127.0.0.1:" + socket.getLocalPort() + "/healthz/ready";
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

    private void probeThreeTimes(CountingServer server) {
        for (int attempt = 0; attempt < 3; attempt++) {
            ProbeResult result = prober.probe(Target.parse(server.url()), Timeout.of(Duration.ofSeconds(5)));
            assertFalse(result.ready());
            assertEquals("HTTP status code 503", result.detail(), "attempt " + attempt);
        }
    }

    @Test
    void aWaitsAttemptsShareOneConnectionAndItsEndClosesIt() throws Exception {
        try (CountingServer server = new CountingServer(NOT_READY, false)) {
            probeThreeTimes(server);
            assertEquals(1, server.connections.get());
            assertEquals(3, server.requests.get());
            assertEquals(1, server.hungUp.getCount(), "still open until the wait is over");
            prober.finished();
            assertTrue(server.hungUp.await(5, TimeUnit.SECONDS), "the end of the wait closes the kept connection");
        }
    }

    @Test
    void aConnectionTheServerClosedWhileIdleIsReplacedWithinTheAttempt() throws Exception {
        try (CountingServer server = new CountingServer(NOT_READY, true)) {
            probeThreeTimes(server); // each answered by the server, never "connection closed"
            assertEquals(3, server.connections.get());
        }
    }

    @Test
    void aServerThatClosesOrSpeaksHttp10GetsANewConnectionEachAttempt() throws Exception {
        for (String response : new String[] {
                "HTTP/1.1 503 Service Unavailable\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n",
                "HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"}) {
            try (CountingServer server = new CountingServer(response, false)) {
                probeThreeTimes(server);
                assertEquals(3, server.connections.get(), response);
            }
        }
    }

    @Test
    void aChunkedBodyReadToItsTrailersKeepsTheConnection() throws Exception {
        String chunked = "HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4\r\nnot \r\n5\r\nready\r\n0\r\nX-Checked: yes\r\n\r\n";
        try (CountingServer server = new CountingServer(chunked, false)) {
            probeThreeTimes(server);
            assertEquals(1, server.connections.get());
        }
    }

    @Test
    void aBodyLongerThanAProbeReadsIsNotReadToItsEndAndTheConnectionIsClosed() throws Exception {
        int length = HttpResponse.DRAINED_BYTES + 1;
        String large = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: " + length + "\r\n\r\n" + "x".repeat(length);
        try (CountingServer server = new CountingServer(large, false)) {
            probeThreeTimes(server);
            assertEquals(3, server.connections.get());
        }
    }
}
