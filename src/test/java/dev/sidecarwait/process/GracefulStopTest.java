package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --stop-signal with the real thing: Debian's nginx as the supervised command (scripts/test.sh installs it), a slow
 * download in flight (limit_rate), and SIGTERM sent to the wrapper as the kubelet sends it. nginx stops gracefully only
 * on SIGQUIT (its listeners closed at once, requests in flight finished); SIGTERM is its fast shutdown, which drops
 * them (nginx.org, "Controlling nginx").
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class GracefulStopTest {

    private static final int BODY = 512 * 1024;

    @TempDir
    Path dir;

    private ServerSocket proxy;

    @BeforeEach
    void proxyIsReady() throws IOException {
        proxy = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    }

    @AfterEach
    void closeProxy() throws IOException {
        proxy.close();
    }

    /** How a download ended: the bytes that arrived after the headers, and what it was told of the content's length. */
    private record Download(int body, int contentLength) {
    }

    @Test
    void sigtermRewrittenToQuitLetsTheRequestInFlightFinishWhileNewConnectionsAreRefused() throws Exception {
        int port = RealServer.freePort();
        Path err = dir.resolve("wrapper-err.txt");
        Process wrapper = underTheWrapper(port, err, "--stop-signal", "QUIT");
        try {
            CompletableFuture<Download> download = startDownload(port);
            wrapper.toHandle().destroy(); // SIGTERM, as the kubelet sends it
            awaitRefused(port, err);
            assertTrue(!download.isDone(), "the listener closed while the request was still in flight");
            Download done = download.get(60, TimeUnit.SECONDS);
            assertEquals(BODY, done.contentLength());
            assertEquals(BODY, done.body(), "the request in flight completes");
            assertTrue(SidecarWaitProcess.exited(wrapper, 30), "nginx exits once it has finished, then the wrapper");
            assertEquals(0, wrapper.exitValue(), Files.readString(err));
            String log = Files.readString(err);
            assertTrue(log.contains("\tinfo\tSIGTERM will be passed on to nginx as SIGQUIT (--stop-signal QUIT)"), log);
            assertTrue(log.matches("(?s).*\tinfo\tForwarded SIGTERM to pid \\d+ as SIGQUIT \\(--stop-signal\\)\n.*"), log);
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    @Test
    void withoutTheRewriteTheSameRequestIsCut() throws Exception {
        int port = RealServer.freePort();
        Path err = dir.resolve("wrapper-err.txt");
        Process wrapper = underTheWrapper(port, err, "--supervise");
        try {
            CompletableFuture<Download> download = startDownload(port);
            wrapper.toHandle().destroy();
            Download cut = download.get(60, TimeUnit.SECONDS);
            assertEquals(BODY, cut.contentLength());
            assertTrue(cut.body() < BODY, "nginx's fast shutdown drops the request: " + cut.body() + " of " + BODY + " bytes");
            assertTrue(SidecarWaitProcess.exited(wrapper, 30), Files.readString(err));
            assertTrue(Files.readString(err).contains("\tinfo\tForwarded SIGTERM to pid "), Files.readString(err));
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    /** nginx in the foreground under the wrapper, serving {@link #BODY} bytes at 128 KiB a second, once it listens. */
    private Process underTheWrapper(int port, Path err, String... flags) throws Exception {
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.write(www.resolve("big"), new byte[BODY]);
        Path conf = Files.writeString(dir.resolve("nginx.conf"), String.join("\n",
                "daemon off;", "worker_processes 1;", "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " info;",
                // as root, the workers keep root to read the test's directory; as another user the line is ignored
                "user root root;",
                "events { worker_connections 64; }",
                "http {", "  access_log off;", "  client_body_temp_path " + dir.resolve("tmp") + ";",
                "  proxy_temp_path " + dir.resolve("tmp") + ";", "  fastcgi_temp_path " + dir.resolve("tmp") + ";",
                "  uwsgi_temp_path " + dir.resolve("tmp") + ";", "  scgi_temp_path " + dir.resolve("tmp") + ";",
                "  server { listen 127.0.0.1:" + port + "; root " + www + "; location / { limit_rate 128k; } }", "}", ""));
        List<String> args = new ArrayList<>(List.of("wait", "--url", "tcp://127.0.0.1:" + proxy.getLocalPort(), "--timeout", "60s"));
        args.addAll(List.of(flags));
        args.addAll(List.of("--", "nginx", "-p", dir.toString(), "-c", conf.toString(), "-e", dir.resolve("error.log").toString()));
        Process wrapper = SidecarWaitProcess.builder(args.toArray(String[]::new))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        SidecarWaitProcess.awaitText(err, "Started nginx");
        SidecarWaitProcess.awaitText(dir.resolve("error.log"), "start worker process");
        return wrapper;
    }

    /** A download in flight: returns once its first body bytes have arrived; the future ends with the download. */
    private static CompletableFuture<Download> startDownload(int port) throws Exception {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.getOutputStream().write(("GET /big HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        String headers = readHeaders(in);
        int length = Integer.parseInt(headers.replaceAll("(?is).*\r\ncontent-length: *(\\d+)\r\n.*", "$1"));
        byte[] first = in.readNBytes(1024);
        return CompletableFuture.supplyAsync(() -> {
            int body = first.length;
            try (socket) {
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    body += n;
                }
            } catch (IOException cut) {
                // a reset ends the download as surely as the end of the stream; the byte count tells
            }
            return new Download(body, length);
        });
    }

    private static String readHeaders(InputStream in) throws IOException {
        StringBuilder headers = new StringBuilder();
        while (!headers.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the response ended in its headers: " + headers);
            }
            headers.append((char) b);
        }
        return headers.toString();
    }

    /** Waits (30 s at most) until nginx refuses a new connection: its listener is closed. */
    private static void awaitRefused(int port, Path err) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            } catch (ConnectException refused) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("nginx still accepts connections: " + Files.readString(err));
    }

}
