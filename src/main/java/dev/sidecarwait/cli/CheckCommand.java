package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.EnvoyAdmin;
import dev.sidecarwait.mesh.MeshDefaults;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.CheckReport;
import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.wire.Timeout;
import java.io.IOException;
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
                "  sidecar-wait check --mesh auto        # which data plane is in this pod?",
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
        MeshOption.Choice choice = probe.meshOption.resolve(env);
        List<Target> given = probe.given(env);
        ExpectedStatus status = probe.givenStatus(env);
        AdminApi adminSetting = probe.admin.settle(env);
        Duration requestTimeout = probe.requestTimeout(env);
        Detector detector = new Detector(context.clock(), PodMesh.proc());
        EnvoyAdmin envoy = new EnvoyAdmin(context.clock());
        long deadline = context.clock().nanoTime() + (timeout == null ? 0 : timeout.toNanos());
        while (true) {
            long start = context.clock().nanoTime();
            PodMesh pod;
            try {
                pod = PodMesh.now(choice.preset(), choice == MeshOption.Choice.AUTO, detector); // again every look: a sidecar may bind its ports later
            } catch (IOException e) {
                context.err().println(PodMesh.unreadable(e));
                return 1;
            }
            List<Target> targets = MeshDefaults.targets(given, pod.mesh());
            NetworkProber prober = new NetworkProber(context.clock(), MeshDefaults.expectedStatus(status, pod.mesh()));
            // Envoy is asked why only about Envoy: a check of dependencies alone has no proxy to explain, unless asked.
            boolean askEnvoy = verbose || adminSetting.given()
                    || pod.mesh() != null && targets.stream().anyMatch(pod.mesh()::ownEndpoint);
            Target.Http admin = askEnvoy ? adminSetting.forMesh(pod.mesh()) : null;
            List<ProbeResult> results = new ArrayList<>();
            for (Target target : targets) {
                ProbeResult result = prober.probe(target, within(requestTimeout, deadline - context.clock().nanoTime()));
                String unanswered = pod.unanswered(result);
                results.add(unanswered.isEmpty() ? result : new ProbeResult(result.target(), false, 0,
                        result.detail() + unanswered, result.bodyLine(), result.latency()));
            }
            EnvoyAdmin.Diagnosis why = admin == null ? null
                    : envoy.diagnose(admin, within(requestTimeout, deadline - context.clock().nanoTime()).duration());
            CheckReport report = new CheckReport(results, why, context.clock().now(),
                    pod.detected() == null ? null : pod.detected().describe());
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
