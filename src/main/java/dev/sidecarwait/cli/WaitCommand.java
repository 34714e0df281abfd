package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Waiter;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "wait", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = "Wait until the proxy is ready: a drop-in for 'pilot-agent wait'.",
        footer = {"",
                "Exit codes: 0 ready (or skipped), 1 not ready before the timeout, 2 bad usage.",
                "",
                "Examples:",
                "  Istio postStart hook (same flags as pilot-agent):",
                "    sidecar-wait wait --timeoutSeconds 120",
                "  Before starting an app in a shell entrypoint:",
                "    sidecar-wait wait --timeout 90s && exec start-app",
                "  Istio 1.6+ health port, Linkerd, a database port:",
                "    sidecar-wait wait --url http://localhost:15021/healthz/ready",
                "    sidecar-wait wait --url http://localhost:4191/ready --expect-status 200-299",
                "    sidecar-wait wait --url tcp://localhost:5432 --period 250ms",
                "  Same image on a laptop, where no sidecar exists:",
                "    sidecar-wait wait --skip-outside-kubernetes"})
final class WaitCommand implements Callable<Integer> {

    enum OnTimeout { FAIL, CONTINUE }

    private final Context context;

    @Mixin
    ProbeOptions probe;

    @Mixin
    LogOptions logging;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Give up after this long. Env: SIDECAR_WAIT_TIMEOUT. Default: 60s.")
    Duration timeout;

    @Option(names = "--timeoutSeconds", paramLabel = "SECONDS",
            description = "pilot-agent's spelling of --timeout, in seconds.")
    Integer timeoutSeconds;

    @Option(names = "--period", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Time between attempts, start to start; the first goes out at once. Env: SIDECAR_WAIT_PERIOD. Default: 500ms.")
    Duration period;

    @Option(names = "--periodMillis", paramLabel = "MILLIS",
            description = "pilot-agent's spelling of --period, in milliseconds.")
    Integer periodMillis;

    @Option(names = "--on-timeout", paramLabel = "fail|continue",
            description = "On timeout, fail (exit 1) or log a warning and exit 0. Env: SIDECAR_WAIT_ON_TIMEOUT. Default: fail.")
    OnTimeout onTimeout;

    @Option(names = "--skip-outside-kubernetes",
            description = "Do not wait when KUBERNETES_SERVICE_HOST is unset (a laptop, CI). Env: SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES.")
    boolean skipOutsideKubernetes;

    WaitCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        Env env = new Env(context.env());
        Log log = logging.log(context, env);
        List<Target> targets = probe.targets(env);
        Duration requestTimeout = probe.requestTimeout(env);
        Duration total = Settings.duration("--timeout", timeout, "--timeoutSeconds", timeoutSeconds, ChronoUnit.SECONDS,
                env, "SIDECAR_WAIT_TIMEOUT", Duration.ofSeconds(60));
        Duration every = Settings.duration("--period", period, "--periodMillis", periodMillis, ChronoUnit.MILLIS,
                env, "SIDECAR_WAIT_PERIOD", Duration.ofMillis(500));
        OnTimeout whenLate = onTimeout != null ? onTimeout : env.parse("SIDECAR_WAIT_ON_TIMEOUT", WaitCommand::onTimeout);
        boolean skipOutside = skipOutsideKubernetes || env.isTrue("SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES");
        NetworkProber prober = new NetworkProber(context.clock(), probe.expectedStatus(env));

        if (env.isTrue("SIDECAR_WAIT_DISABLED")) {
            log.info("SIDECAR_WAIT_DISABLED is true: not waiting for the proxy");
            return 0;
        }
        if (skipOutside && env.get("KUBERNETES_SERVICE_HOST") == null) {
            log.info("Not in Kubernetes (KUBERNETES_SERVICE_HOST is unset): not waiting for the proxy");
            return 0;
        }

        log.info("Waiting for Envoy proxy to be ready (timeout: " + Durations.inSeconds(total) + ")...");
        Waiter.Outcome outcome = new Waiter(context.clock(), prober).await(targets, total, every, requestTimeout,
                failed -> log.debug("Not ready yet: " + describe(failed)));
        if (outcome.ready()) {
            log.info("Envoy is ready!");
            return 0;
        }
        String message = "timeout waiting for Envoy proxy to become ready. Last error: "
                + outcome.unready().stream().map(WaitCommand::describe).collect(Collectors.joining("; "));
        if (whenLate == OnTimeout.CONTINUE) {
            log.warn(message + " (continuing: --on-timeout continue)");
            return 0;
        }
        log.error(message);
        return 1;
    }

    private static String describe(ProbeResult result) {
        return result.target().text() + ": " + result.detail();
    }

    private static OnTimeout onTimeout(String value) {
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "fail" -> OnTimeout.FAIL;
            case "continue" -> OnTimeout.CONTINUE;
            default -> throw new IllegalArgumentException("'" + value + "' is not fail or continue");
        };
    }
}
