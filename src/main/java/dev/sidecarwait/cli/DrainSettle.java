package dev.sidecarwait.cli;

import dev.sidecarwait.drain.DrainPlan;
import dev.sidecarwait.mesh.AdminApi;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;

/** drain's flags, then the environment, then the defaults: every setting once, every usage error before anything runs. */
final class DrainSettle {

    private DrainSettle() {
    }

    static DrainPlan settle(DrainCommand flags, Env env) {
        MeshOption.Choice choice = flags.meshOption.resolve(env);
        Duration atLeast = flags.min != null ? flags.min
                : orDefault(env.parse("SIDECAR_WAIT_DRAIN_MIN", Durations::parse), Duration.ofSeconds(3));
        Duration atMost = Settings.duration("--timeout", flags.timeout, null, null, null, env, "SIDECAR_WAIT_DRAIN_TIMEOUT",
                Duration.ofSeconds(30));
        Duration every = Settings.duration("--period", flags.period, null, null, null, env, "SIDECAR_WAIT_DRAIN_PERIOD",
                Duration.ofSeconds(1));
        if (atMost.compareTo(atLeast) < 0) {
            throw new UsageError("--timeout (" + Durations.format(atMost) + ") must not be shorter than --min ("
                    + Durations.format(atLeast) + ")");
        }
        if (flags.gracefulEnvoy && flags.gracefulEnvoyAfter) {
            throw new UsageError("--graceful-envoy asks Envoy to drain first, --graceful-envoy-after once drained; give one");
        }
        DrainCommand.Source from = flags.source != null ? flags.source : orDefault(env.parse("SIDECAR_WAIT_DRAIN_SOURCE",
                value -> Choices.parse(DrainCommand.Source.values(), value)), DrainCommand.Source.PROC);
        AdminApi admin = flags.admin.settle(env);
        return new DrainPlan(choice.preset(), choice == MeshOption.Choice.AUTO, new LinkedHashSet<>(flags.ports),
                new LinkedHashSet<>(flags.excludePorts),
                flags.excludeProcesses, atLeast, atMost, every, DrainPlan.Source.valueOf(from.name()), admin, flags.gracefulEnvoy,
                flags.gracefulEnvoyAfter, flags.tls.settle(env, TlsOptions.urls(List.of(), admin, List.of())));
    }

    private static <T> T orDefault(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
