package dev.sidecarwait.cli;

import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** What to probe and how each request is made: shared by the commands that look at targets. */
final class ProbeOptions {

    @Option(names = "--url", paramLabel = "URL", converter = Converters.TargetConverter.class,
            description = "What must be ready: an http:// readiness URL, tcp://HOST:PORT, or a server that must answer its "
                    + "own protocol: redis://, postgres://, mysql://, kafka://, amqp://, nats://HOST[:PORT], "
                    + "grpc://HOST:PORT[/SERVICE] (through a sidecar, tcp:// only proves the sidecar is up). Repeat for "
                    + "several; all must be ready. Env: SIDECAR_WAIT_URL (comma-separated). Default: the mesh's; for istio "
                    + "http://localhost:15020/healthz/ready, the agent's status port (pilot-agent wait's own default is "
                    + "15021, Envoy's health listener, which routes to 15020: both work).")
    List<Target> urls = new ArrayList<>();

    @Option(names = "--expect-status", paramLabel = "CODES", converter = Converters.StatusConverter.class,
            description = "Status codes that mean ready: a code, a list or a range, e.g. 200, 200,204, 200-399. Env: SIDECAR_WAIT_EXPECT_STATUS. Default: the mesh's (istio, envoy: 200; linkerd: 200-299).")
    ExpectedStatus expectStatus;

    @Option(names = "--request-timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Longest one request may take. Env: SIDECAR_WAIT_REQUEST_TIMEOUT. Default: 500ms.")
    Duration requestTimeout;

    @Option(names = "--requestTimeoutMillis", paramLabel = "MILLIS",
            description = "pilot-agent's spelling of --request-timeout, in milliseconds.")
    Integer requestTimeoutMillis;

    @Mixin
    AdminOption admin;

    @Mixin
    MeshOption meshOption;

    /** The flags', else the variable's, else the mesh's; a URL given twice is one target. */
    List<Target> targets(Env env) {
        if (!urls.isEmpty()) {
            return List.copyOf(new LinkedHashSet<>(urls));
        }
        List<Target> fromEnv = targetList(env, "SIDECAR_WAIT_URL");
        return fromEnv.isEmpty() ? List.of(Target.parse(meshOption.resolve(env).readyUrl)) : List.copyOf(new LinkedHashSet<>(fromEnv));
    }

    /** Whether the admin URL was given rather than taken from the mesh preset. */
    boolean adminUrlGiven(Env env) {
        return admin.given(env);
    }

    /** Null when there is no admin API to ask. */
    Target.Http adminUrl(Env env) {
        return admin.resolve(env, meshOption.resolve(env));
    }

    /** A comma-separated list of targets from one environment variable; empty when unset. */
    static List<Target> targetList(Env env, String name) {
        List<Target> targets = env.parse(name, value -> {
            List<Target> parsed = new ArrayList<>();
            for (String item : value.split(",")) {
                if (!item.isBlank()) {
                    try {
                        parsed.add(Target.parse(item.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("'" + Target.redacted(item.trim()) + "': " + e.getMessage());
                    }
                }
            }
            return parsed;
        });
        return targets == null ? List.of() : List.copyOf(targets);
    }

    ExpectedStatus expectedStatus(Env env) {
        if (expectStatus != null) {
            return expectStatus;
        }
        ExpectedStatus fromEnv = env.parse("SIDECAR_WAIT_EXPECT_STATUS", ExpectedStatus::parse);
        return fromEnv != null ? fromEnv : ExpectedStatus.parse(meshOption.resolve(env).expectStatus);
    }

    Duration requestTimeout(Env env) {
        return Settings.duration("--request-timeout", requestTimeout, "--requestTimeoutMillis", requestTimeoutMillis,
                ChronoUnit.MILLIS, env, "SIDECAR_WAIT_REQUEST_TIMEOUT", Duration.ofMillis(500));
    }
}
