package dev.sidecarwait.cli;

import dev.sidecarwait.check.CheckPlan;
import dev.sidecarwait.check.CheckRun;
import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.probe.Target;
import java.time.Duration;
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
/** check's command line: its flags and help. settle makes them a CheckPlan, which CheckRun runs. */
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
        CheckPlan plan = settle(new Env(context.env()));
        return new CheckRun(context.clock(), context.out(), context.err(), PodMesh.proc(), plan).run();
    }

    /** The flags, then the environment, then the defaults: every setting once, every usage error before a look. */
    CheckPlan settle(Env env) {
        if (verbose && quiet) {
            throw new UsageError("--verbose and --quiet cannot be used together");
        }
        MeshOption.Choice choice = probe.meshOption.resolve(env);
        CheckPlan.Output to = quiet ? CheckPlan.Output.NONE : CheckPlan.Output.valueOf(output.name());
        List<Target> given = probe.given(env);
        AdminApi admin = probe.admin.settle(env);
        return new CheckPlan(choice.preset(), choice == MeshOption.Choice.AUTO, given, probe.givenStatus(env),
                admin, probe.requestTimeout(env), to, watch, period, timeout, verbose,
                probe.tls.settle(env, TlsOptions.urls(given, admin, List.of())), KubeSettings.settle(given, env, false));
    }
}
