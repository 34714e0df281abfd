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

    @Override
    public int run(Context context) throws InterruptedException {
        Env env = new Env(context.env());
        List<Target> targets = probe.targets(env);
        Duration requestTimeout = probe.requestTimeout(env);
        NetworkProber prober = new NetworkProber(context.clock(), probe.expectedStatus(env));
        Target.Http admin = probe.adminUrl(env);
        EnvoyAdmin envoy = new EnvoyAdmin(context.clock());
        while (true) {
            long start = context.clock().nanoTime();
            List<ProbeResult> results = new ArrayList<>();
            for (Target target : targets) {
                results.add(prober.probe(target, Timeout.of(requestTimeout)));
            }
            CheckReport report = new CheckReport(results, admin == null ? null : envoy.diagnose(admin, requestTimeout),
                    context.clock().now());
            if (output == Output.JSON) {
                report.printJson(context.out());
            } else {
                report.printText(context.out());
            }
            if (report.allReady()) {
                return 0;
            }
            if (!watch) {
                return 1;
            }
            context.clock().sleep(Duration.ofNanos(Math.max(0, start + period.toNanos() - context.clock().nanoTime())));
        }
    }
}
