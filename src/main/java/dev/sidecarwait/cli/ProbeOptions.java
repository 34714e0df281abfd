package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What to probe and how each request is made: shared by the commands that look at targets. */
final class ProbeOptions {

    @Option(names = "--url", paramLabel = "URL", converter = Converters.TargetConverter.class,
            description = "What must be ready: an http:// or https:// readiness URL, tcp://HOST:PORT, tls://HOST:PORT (a "
                    + "verified handshake), or a server that must answer its own protocol: redis://, postgres://, mysql://, "
                    + "kafka://, amqp://, nats://HOST[:PORT], grpc://HOST:PORT[/SERVICE] (through a sidecar, tcp:// only "
                    + "proves the sidecar is up), their TLS forms rediss://, amqps://, grpcs:// and PostgreSQL's ?sslmode=, "
                    + "MySQL's ?ssl-mode=, or "
                    + "dns://NAME (it resolves through the pod's DNS); in the pod itself, file:///PATH (a file another "
                    + "container writes, readable), unix:///PATH (a Unix socket that accepts), "
                    + "http+unix://%%2FSOCKET%%2FPATH/readiness/path, postgres:///DB?host=/SOCKET-DIRECTORY; in the cluster, "
                    + "k8s://TYPE/NAME (a Job completed, a Service's ready endpoints, a rollout, pods, ?condition=; through the "
                    + "pod's service account). Repeat for several; all must be ready, each probed "
                    + "on its own schedule. USER:PASSWORD@ in an http:// or https:// URL is sent as Basic authentication "
                    + "and shown as ***. Env: SIDECAR_WAIT_URL (comma-separated). Default: the mesh's; for istio "
                    + "http://localhost:15020/healthz/ready, the agent's status port (pilot-agent wait's own default is "
                    + "15021, Envoy's health listener, which routes to 15020: both work).")
    List<Target> urls = new ArrayList<>();

    @Option(names = "--expect-status", paramLabel = "CODES", converter = Converters.StatusConverter.class,
            description = "Status codes that mean ready: a code, a list or a range, e.g. 200, 200,204, 200-399. Env: SIDECAR_WAIT_EXPECT_STATUS. Default: the mesh's (istio, envoy: 200; linkerd: 200-299).")
    ExpectedStatus expectStatus;

    @Option(names = "--request-timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Longest one request may take. Env: SIDECAR_WAIT_REQUEST_TIMEOUT. Default: 500ms.")
    Duration requestTimeout;

    @Option(names = "--requestTimeoutMillis", paramLabel = "MILLIS", converter = Converters.WholeNumber.class,
            description = "pilot-agent's spelling of --request-timeout, in milliseconds.")
    Integer requestTimeoutMillis;

    @Mixin
    AdminOption admin;

    @Mixin
    MeshOption meshOption;

    @Mixin
    TlsOptions tls;

    /** The --url flags', else SIDECAR_WAIT_URL's, without repeats; empty when neither is set. */
    List<Target> given(Env env) {
        List<Target> given = !urls.isEmpty() ? urls : targetList(env, "SIDECAR_WAIT_URL");
        return List.copyOf(new LinkedHashSet<>(given));
    }

    /** A comma-separated list of targets from one environment variable; empty when unset. */
    static List<Target> targetList(Env env, String name) {
        return targetList(env, name, Target::parse);
    }

    /**
     * As {@link #targetList(Env, String)}, each read by {@code parser} (its message says what is wrong). A piece
     * that ends a URL's user information belongs to the one before it, a host still unfinished: a ',' in a password
     * ("http://u:pa,ss@host/").
     */
    static List<Target> targetList(Env env, String name, Function<String, Target> parser) {
        List<Target> targets = env.parse(name, value -> {
            List<Target> parsed = new ArrayList<>();
            List<String> items = new ArrayList<>();
            for (String piece : value.split(",", -1)) {
                if (!items.isEmpty() && items.get(items.size() - 1).strip().matches("[A-Za-z][A-Za-z0-9+.-]*://[^/?#@]*")
                        && piece.matches("[^/?#]*@.*")) {
                    items.set(items.size() - 1, items.get(items.size() - 1) + "," + piece);
                } else {
                    items.add(piece);
                }
            }
            for (String item : items) {
                if (!item.isBlank()) {
                    try {
                        parsed.add(parser.apply(item.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("'" + Target.redacted(item.trim()) + "': " + e.getMessage());
                    }
                }
            }
            return parsed;
        });
        return targets == null ? List.of() : List.copyOf(targets);
    }

    /** The flag's, else the variable's; null when neither is set, for the mesh's to apply. */
    ExpectedStatus givenStatus(Env env) {
        return expectStatus != null ? expectStatus : env.parse("SIDECAR_WAIT_EXPECT_STATUS", ExpectedStatus::parse);
    }

    Duration requestTimeout(Env env) {
        return Settings.duration("--request-timeout", requestTimeout, "--requestTimeoutMillis", requestTimeoutMillis,
                ChronoUnit.MILLIS, env, "SIDECAR_WAIT_REQUEST_TIMEOUT", Duration.ofMillis(500));
    }
}
