package dev.sidecarwait.cli;

import dev.sidecarwait.output.CheckReport;
import dev.sidecarwait.probe.EnvoyAdmin;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Timeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = {"One look at every target, for a person debugging inside a pod.",
                "For each target: the verdict, the HTTP status or connection error, latency, the first line of the body "
                        + "(or what the server said); and, for an Envoy sidecar, why it is not ready, from its admin API."},
        footer = {"",
                "Exit codes: 0 every target is ready, 1 not, 2 bad usage.",
                "",
                "Examples:",
                "  kubectl exec POD -c istio-proxy -- /sidecar-wait/sidecar-wait check",
                "  sidecar-wait check --mesh linkerd",
                "  sidecar-wait check --watch           # again every second until ready",
                "  sidecar-wait check --watch --timeout 2m -q || echo not ready",
                "  sidecar-wait check --output json | jq .envoy.explanation"})
final class CheckCommand implements Subcommand {

    enum Output { TEXT, JSON }

    @Mixin
    ProbeOptions probe;

    @Option(names = "--output", paramLabel = "text|json", converter = Converters.OutputChoice.class, description = "Text for people, JSON (one object a look) for scripts. Default: text.")
    Output output = Output.TEXT;

    @Option(names = "--watch", description = "Look again every period until every target is ready (or Ctrl-C).")
    boolean watch;

    @Option(names = "--period", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Time between looks with --watch. Default: 1s.")
    Duration period = Duration.ofSeconds(1);

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Give up after this long: no request runs past it, and --watch stops looking then (exit 1). "
                    + "Default: none (one look; with --watch, until every target is ready).")
    Duration timeout;

    @Option(names = {"-v", "--verbose"},
            description = "Also ask Envoy's admin API when no target is the proxy's own endpoint, and print answers uncut.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing: the exit code says whether every target is ready.")
    boolean quiet;

    @Override
    public int run(Context context) throws InterruptedException {
        if (verbose && quiet) {
            throw new UsageError("--verbose and --quiet cannot be used together");
        }
        Env env = new Env(context.env());
        List<Target> targets = probe.targets(env);
        Duration requestTimeout = probe.requestTimeout(env);
        NetworkProber prober = new NetworkProber(context.clock(), probe.expectedStatus(env));
        // Envoy is asked why only about Envoy: a check of dependencies alone has no proxy to explain, unless asked.
        boolean askEnvoy = verbose || probe.adminUrlGiven(env) || targets.stream().anyMatch(Target::proxyEndpoint);
        Target.Http admin = askEnvoy ? probe.adminUrl(env) : null;
        EnvoyAdmin envoy = new EnvoyAdmin(context.clock());
        long deadline = context.clock().nanoTime() + (timeout == null ? 0 : timeout.toNanos());
        while (true) {
            long start = context.clock().nanoTime();
            List<ProbeResult> results = new ArrayList<>();
            for (Target target : targets) {
                results.add(prober.probe(target, within(requestTimeout, deadline - context.clock().nanoTime())));
            }
            EnvoyAdmin.Diagnosis why = admin == null ? null
                    : envoy.diagnose(admin, within(requestTimeout, deadline - context.clock().nanoTime()).duration());
            CheckReport report = new CheckReport(results, why, context.clock().now());
            if (quiet) {
                // the exit code says it
            } else if (output == Output.JSON) {
                report.printJson(context.out());
            } else {
                report.printText(context.out(), verbose);
            }
            if (report.allReady()) {
                return 0;
            }
            long next = start + period.toNanos();
            if (!watch || timeout != null && next - deadline >= 0) {
                return 1;
            }
            context.clock().sleep(Duration.ofNanos(Math.max(0, next - context.clock().nanoTime())));
        }
    }

    /** The request timeout, or what is left of --timeout when that is less. */
    private Timeout within(Duration requestTimeout, long nanosLeft) {
        return timeout == null ? Timeout.of(requestTimeout)
                : Timeout.within(requestTimeout, Duration.ofNanos(Math.max(nanosLeft, 1_000_000)));
    }
}
