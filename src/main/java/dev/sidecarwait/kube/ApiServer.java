package dev.sidecarwait.kube;

import dev.sidecarwait.tls.BadFile;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.tls.Trust;
import dev.sidecarwait.wire.ProbeFailure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The API server as client-go's rest.InClusterConfig finds it from inside a pod: KUBERNETES_SERVICE_HOST and
 * KUBERNETES_SERVICE_PORT, the service account's token (read again for every request: bound tokens rotate) and its
 * ca.crt as the only trust, the server's certificate checked against the host as given (an IP address, as a pod
 * sees it). {@code namespace}: the pod's own, for targets that name none.
 */
public record ApiServer(String host, int port, Path tokenFile, TlsSettings tls, String namespace) {

    /** Where the kubelet mounts the service account (automountServiceAccountToken). */
    public static final Path ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
    public static final String TOKEN_FILE = "SIDECAR_WAIT_K8S_TOKEN_FILE";
    public static final String CA_FILE = "SIDECAR_WAIT_K8S_CA_FILE";
    /** The largest token read: a bound token is about a kilobyte. */
    static final int MAX_TOKEN = 64 * 1024;

    /**
     * Settled once, before the wait: whatever is missing is said with what to change (exit 2), since it will not
     * change while the pod runs. {@code env}: the process's environment.
     */
    public static ApiServer inCluster(Function<String, String> env) {
        String host = env.apply("KUBERNETES_SERVICE_HOST");
        String port = env.apply("KUBERNETES_SERVICE_PORT");
        if (host == null || host.isBlank() || port == null || port.isBlank()) {
            throw new IllegalArgumentException("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: this is "
                    + "not a Kubernetes pod (a k8s:// target asks the API server of the pod's own cluster)");
        }
        if (!port.matches("[1-9][0-9]{0,4}") || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("KUBERNETES_SERVICE_PORT '" + port + "' is not a port number");
        }
        Path token = given(env, TOKEN_FILE, "token");
        if (!Files.isReadable(token)) {
            throw new IllegalArgumentException("no service account token at " + token + ": the pod runs with "
                    + "automountServiceAccountToken: false (set it to true in the pod or its service account, or mount a "
                    + "projected token and name it in " + TOKEN_FILE + ")");
        }
        Path ca = given(env, CA_FILE, "ca.crt");
        Trust trust;
        try {
            trust = Trust.file(ca);
        } catch (BadFile bad) {
            throw new IllegalArgumentException("the API server's CA " + ca + ": " + bad.reason()
                    + " (the service account's ca.crt, or the file named in " + CA_FILE + ")");
        }
        return new ApiServer(host.trim(), Integer.parseInt(port), token, new TlsSettings(trust, null, false),
                namespace(env));
    }

    private static Path given(Function<String, String> env, String variable, String file) {
        String value = env.apply(variable);
        return value == null || value.isBlank() ? ACCOUNT.resolve(file) : Path.of(value.trim());
    }

    /** POD_NAMESPACE (the downward API), else the service account's namespace file, as client-go reads it; else null. */
    private static String namespace(Function<String, String> env) {
        String given = env.apply("POD_NAMESPACE");
        if (given != null && !given.isBlank()) {
            return given.trim();
        }
        try {
            String read = new String(head(ACCOUNT.resolve("namespace"), 256), StandardCharsets.UTF_8).trim();
            return read.isEmpty() ? null : read;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** The token, read now; never shown. */
    String token() throws ProbeFailure {
        try {
            byte[] bytes = head(tokenFile, MAX_TOKEN + 1);
            if (bytes.length > MAX_TOKEN) {
                throw new ProbeFailure("the service account token " + tokenFile + " is over " + MAX_TOKEN + " bytes");
            }
            String token = new String(bytes, StandardCharsets.US_ASCII).trim();
            if (token.isEmpty() || !token.matches("[\\x21-\\x7e]+")) {
                throw new ProbeFailure("the service account token " + tokenFile + " is empty or not one word");
            }
            return token;
        } catch (IOException e) {
            throw new ProbeFailure("cannot read the service account token " + tokenFile + " ("
                    + ProbeFailure.describe(e) + ")");
        }
    }

    /** At most {@code max} bytes of the file: whatever it is (a device, a huge file), no more is read. */
    private static byte[] head(Path file, int max) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(max);
        }
    }

    /** host:port as a URL writes it. */
    String authority() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
