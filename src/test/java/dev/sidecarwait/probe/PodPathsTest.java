package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * file://, unix:// and http+unix:// through the tool as a process, while another process changes what is at the path:
 * a secret rendered late and moved into place as the Vault agent writes it (a temporary file renamed over the name), a
 * directory where a file was expected, a Unix socket whose listener comes late, a socket file a dead server left
 * behind, a regular file where a socket was expected, and a Dapr sidecar's HTTP API on its socket. Dapr cannot run
 * here: its stand-in answers as daprd does (GET /v1.0/healthz/outbound: 204 once its components are ready, 500 before;
 * Dapr's "Health API" reference, dapr/dapr pkg/api/http/http.go; the socket named dapr-APPID-http.socket in the
 * directory of the dapr.io/unix-domain-socket-path annotation, dapr/cli's run tests; POST /v1.0/shutdown: 204).
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class PodPathsTest {

    @TempDir
    Path dir;

    private Process waitFor(Path err, String... urls) throws IOException {
        List<String> args = new ArrayList<>(List.of("wait", "--timeout", "30s", "--period", "50ms", "--verbose"));
        for (String url : urls) {
            args.addAll(url.startsWith("--") ? List.of(url) : List.of("--url", url));
        }
        return SidecarWaitProcess.builder(args.toArray(String[]::new)).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void sh(String script) throws Exception {
        Process sh = new ProcessBuilder("sh", "-c", script).inheritIO().start();
        assertTrue(SidecarWaitProcess.exited(sh, 20) && sh.exitValue() == 0, script);
    }

    private static void assertReady(Process wait, Path err) throws Exception {
        assertTrue(SidecarWaitProcess.exited(wait, 30), "the wait ended: " + Files.readString(err));
        assertEquals(0, wait.exitValue(), Files.readString(err));
    }

    @Test
    void aSecretRenderedLateAndMovedIntoPlaceByAnotherProcess() throws Exception {
        Path secrets = Files.createDirectory(dir.resolve("secrets"));
        Path secret = secrets.resolve("db-creds");
        Path err = dir.resolve("err.txt");
        Process wait = waitFor(err, "file://" + secret);
        try {
            SidecarWaitProcess.awaitText(err, "Not ready yet: file://" + secret + ": missing");
            sh("printf 'user=app\\npassword=s3cret\\n' > " + secrets + "/.db-creds.tmp && mv " + secrets + "/.db-creds.tmp "
                    + secret);
            assertReady(wait, err);
            assertTrue(Files.readString(err).contains("file://" + secret + " is ready!"), Files.readString(err));
            assertTrue(!Files.readString(err).contains("s3cret"), "what the file holds is never read, nor printed");
        } finally {
            SidecarWaitProcess.endTree(wait);
        }
    }

    @Test
    void aDirectoryIsNotTheFileUntilAFileTakesItsPlace() throws Exception {
        Path marker = Files.createDirectory(dir.resolve("done"));
        Path err = dir.resolve("err.txt");
        Process wait = waitFor(err, "file://" + marker, "file://" + dir.resolve("missing-dir/x"));
        try {
            SidecarWaitProcess.awaitText(err, "Not ready yet: file://" + marker + ": a directory, not a file");
            SidecarWaitProcess.awaitText(err, "file://" + dir.resolve("missing-dir/x") + ": missing (no directory "
                    + dir.resolve("missing-dir") + ")");
            sh("rmdir " + marker + " && touch " + marker + " && mkdir " + dir.resolve("missing-dir") + " && touch "
                    + dir.resolve("missing-dir/x"));
            assertReady(wait, err);
        } finally {
            SidecarWaitProcess.endTree(wait);
        }
    }

    @Test
    void aSocketWhoseListenerComesLateAfterAStaleFileAndARegularFile() throws Exception {
        Path socket = dir.resolve("agent.sock");
        Path err = dir.resolve("err.txt");
        Process wait = waitFor(err, "unix://" + socket);
        try {
            SidecarWaitProcess.awaitText(err, "Not ready yet: unix://" + socket + ": no such socket (nothing at " + socket
                    + " yet)");
            Files.writeString(socket, "");
            SidecarWaitProcess.awaitText(err, "unix://" + socket + ": not a socket (a file of 0 bytes)");
            Files.delete(socket);
            ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            dead.bind(UnixDomainSocketAddress.of(socket));
            dead.close(); // the socket file stays, with nobody behind it
            SidecarWaitProcess.awaitText(err, "unix://" + socket + ": nobody listening (connection refused: a socket file "
                    + "left behind by a server that is gone?)");
            Files.delete(socket);
            try (ServerSocketChannel agent = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                agent.bind(UnixDomainSocketAddress.of(socket));
                assertReady(wait, err);
            }
        } finally {
            SidecarWaitProcess.endTree(wait);
        }
    }

    @Test
    void daprsHttpApiOnItsSocketIsReadyWhenItsOutboundHealthSays204AndShutsDownOnAPost() throws Exception {
        Path socket = dir.resolve("dapr-orders-http.socket");
        String url = "http+unix://" + socket.toString().replace("/", "%2F") + "/v1.0/healthz/outbound";
        Path err = dir.resolve("err.txt");
        try (ServerSocketChannel daprd = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            daprd.bind(UnixDomainSocketAddress.of(socket));
            Thread answering = new Thread(() -> {
                for (int request = 0; ; request++) {
                    try (SocketChannel client = daprd.accept()) {
                        String asked = readRequest(client);
                        String status = asked.startsWith("POST /v1.0/shutdown HTTP/1.1\r\n") ? "204 No Content"
                                : !asked.startsWith("GET /v1.0/healthz/outbound HTTP/1.1\r\n") ? "404 Not Found"
                                : request < 3 ? "500 Internal Server Error" : "204 No Content";
                        client.write(ByteBuffer.wrap(("HTTP/1.1 " + status + "\r\nContent-Length: 0\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII)));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            answering.setDaemon(true);
            answering.start();
            Process wait = waitFor(err, url, "--expect-status=200-299"); // 204, where the proxy's default is 200
            try {
                SidecarWaitProcess.awaitText(err, "Not ready yet: " + url + ": HTTP status code 500");
                assertReady(wait, err);
                assertTrue(Files.readString(err).contains(url + " is ready!"), "named as a dependency, not as the proxy: "
                        + Files.readString(err));
            } finally {
                SidecarWaitProcess.endTree(wait);
            }
            String shutdown = url.replace("/v1.0/healthz/outbound", "/v1.0/shutdown");
            SidecarWaitProcess.Result quit = SidecarWaitProcess.run(Map.of(), null, "quit", "--url", shutdown);
            assertEquals(0, quit.exit(), quit.err());
            assertTrue(quit.err().contains("Asked the sidecar to quit: POST " + shutdown + " answered HTTP 204"), quit.err());
        }
    }

    private static String readRequest(SocketChannel client) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        StringBuilder request = new StringBuilder();
        while (!request.toString().contains("\r\n\r\n") && client.read(buffer) > 0) {
            buffer.flip();
            request.append(StandardCharsets.US_ASCII.decode(buffer));
            buffer.clear();
        }
        return request.toString();
    }

    @Test
    void checkSaysWhatItFound() throws Exception {
        Path secret = Files.writeString(dir.resolve("token"), "0123456789");
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "check", "--url", "file://" + secret);
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().matches("(?s).*ready +file://" + secret + " +a file of 10 bytes .*"), run.out());
    }
}
