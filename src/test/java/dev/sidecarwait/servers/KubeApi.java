package dev.sidecarwait.servers;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * An API server for the k8s:// tests: fabric8's Kubernetes mock server in CRUD mode (objects created, changed and
 * deleted with its client, lists and watches answered from them), behind a TLS front with a certificate for
 * 127.0.0.1 from a CA of the run's own, as a pod reaches kubernetes.default. The mock serves watches over WebSocket
 * only (KubernetesCrudDispatcher.handleWatch); the front serves them as the API server does over HTTP/1.1 (see
 * {@link WatchRelay}). Each request line and bearer token the front sees is recorded: the counts the API-load
 * figures are made of. A test may answer requests itself ({@link #answer}) to be the hostile or refusing server.
 */
public final class KubeApi implements AutoCloseable {

    /** The mock logs every request at INFO: kept to warnings (a strong reference, or JUL forgets the level). */
    private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8");

    /** Answers one request instead of the mock: true when it did. */
    public interface Reply {
        boolean answer(String requestLine, OutputStream out) throws Exception;
    }

    public final KubernetesMockServer mock;
    public final KubernetesClient client;
    public final Path token;
    public final Path caCert;
    public final int port;
    public final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    public final List<String> tokens = Collections.synchronizedList(new ArrayList<>());
    private final SSLServerSocket front;
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
    private volatile Reply reply = (line, out) -> false;
    private final java.util.concurrent.atomic.AtomicInteger watching = new java.util.concurrent.atomic.AtomicInteger();

    private KubeApi(KubernetesMockServer mock, SSLServerSocket front, Path token, Path caCert) {
        this.mock = mock;
        this.client = mock.createClient();
        this.front = front;
        this.port = front.getLocalPort();
        this.token = token;
        this.caCert = caCert;
    }

    public static KubeApi start(Path dir) throws Exception {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
        TestCa ca = TestCa.create(dir, "kubernetes CA");
        TestCa.Issued issued = ca.server("kube-apiserver", "IP:127.0.0.1", "DNS:kubernetes.default.svc");
        Path p12 = dir.resolve("apiserver.p12");
        Process export = new ProcessBuilder("openssl", "pkcs12", "-export", "-in", issued.cert().toString(), "-inkey",
                issued.key().toString(), "-out", p12.toString(), "-passout", "pass:test").redirectErrorStream(true).start();
        export.getInputStream().readAllBytes();
        if (!export.waitFor(60, TimeUnit.SECONDS) || export.exitValue() != 0) {
            throw new IllegalStateException("openssl pkcs12 failed");
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(p12.toFile())) {
            store.load(in, "test".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "test".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keys.getKeyManagers(), null, null);
        SSLServerSocket front = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getByName("127.0.0.1"));
        Map<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer mock = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        mock.init(InetAddress.getByName("127.0.0.1"), 0);
        Path token = dir.resolve("token");
        Files.writeString(token, tokenFor("shop", "migrator", "first"));
        KubeApi api = new KubeApi(mock, front, token, ca.cert);
        Thread accepting = new Thread(api::accept, "kube-api front");
        accepting.setDaemon(true);
        accepting.start();
        return api;
    }

    /** A service account token as the kubelet mounts one (a JWT; its signature is not checked here). */
    public static String tokenFor(String namespace, String account, String serial) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        return url.encodeToString("{\"alg\":\"RS256\",\"kid\":\"test\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(("{\"sub\":\"system:serviceaccount:" + namespace + ":" + account + "\",\"jti\":\""
                + serial + "\"}").getBytes(StandardCharsets.UTF_8)) + "." + url.encodeToString(serial.getBytes(StandardCharsets.UTF_8));
    }

    /** The environment a pod's container has for this server: its address, and the token and CA where they are. */
    public Map<String, String> podEnv() {
        return Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", String.valueOf(port),
                "SIDECAR_WAIT_K8S_TOKEN_FILE", token.toString(), "SIDECAR_WAIT_K8S_CA_FILE", caCert.toString(),
                "POD_NAMESPACE", "shop");
    }

    /** As it was started, for the next test: the mock answers everything, the first token, no objects, no requests seen. */
    public void reset() throws IOException {
        answer((line, out) -> false);
        Files.writeString(token, tokenFor("shop", "migrator", "first"));
        client.batch().v1().jobs().inNamespace("shop").delete();
        client.apps().deployments().inNamespace("shop").delete();
        client.discovery().v1().endpointSlices().inNamespace("shop").delete();
        client.pods().inNamespace("shop").delete();
        requests.clear();
    }

    /** From now on, {@code reply} answers first; what it does not answer goes to the mock. */
    public void answer(Reply reply) {
        this.reply = reply;
    }

    /** The watches being served now whose object exists, each counted once the mock sends on it (its side is open). */
    public int openWatches() {
        return watching.get();
    }

    public long count(String fragment) {
        synchronized (requests) {
            return requests.stream().filter(line -> line.contains(fragment)).count();
        }
    }

    private void accept() {
        while (!front.isClosed()) {
            try {
                Socket socket = front.accept();
                open.add(socket);
                Thread serving = new Thread(() -> serve(socket), "kube-api connection");
                serving.setDaemon(true);
                serving.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            String head = head(in);
            String line = head.substring(0, head.indexOf("\r\n"));
            requests.add(line);
            for (String header : head.split("\r\n")) {
                if (header.toLowerCase().startsWith("authorization: bearer ")) {
                    tokens.add(header.substring("authorization: bearer ".length()));
                }
            }
            if (reply.answer(line, out)) {
                return;
            }
            String target = line.split(" ")[1];
            if (target.contains("watch=1") || target.contains("watch=true")) {
                new WatchRelay(mock, target, watching).serve(out);
            } else {
                forward(target, out);
            }
        } catch (Exception ended) {
            // the client went away, or the test ended
        }
    }

    private void forward(String target, OutputStream out) throws Exception {
        java.net.http.HttpResponse<byte[]> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + mock.getPort() + target)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
        out.write(("HTTP/1.1 " + response.statusCode() + " X\r\nContent-Type: application/json\r\nContent-Length: "
                + response.body().length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(response.body());
        out.flush();
    }

    /** A response with this status, headers and body, as a test's {@link Reply} writes one. */
    public static void respond(OutputStream out, int status, String headers, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\n" + headers + "Content-Length: "
                + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.flush();
    }

    /** The head of a watch's 200, the chunks to follow. */
    public static void watchHead(OutputStream out) throws IOException {
        out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** A Status as the API server sends one with a failure. */
    public static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the request's end");
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        front.close();
        synchronized (open) {
            for (Socket socket : open) {
                socket.close();
            }
        }
        client.close();
        mock.destroy();
    }
}
