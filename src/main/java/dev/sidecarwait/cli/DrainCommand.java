package dev.sidecarwait.cli;

import dev.sidecarwait.drain.DrainPlan;
import dev.sidecarwait.drain.DrainRun;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.Log;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "drain", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = {"Hold shutdown until the application has let go: the preStop side, without netstat or a shell.",
                "Reads the pod's sockets from /proc/net/tcp and /proc/net/tcp6 (every container of a pod shares them)."},
        footer = {"",
                "Without --port: waits until no TCP socket is listening except the proxy's own. With --port: waits "
                        + "until nothing listens on those ports and no established connection remains on them.",
                "A socket is the proxy's own when its owner process (seen in /proc/PID/fd) is one of --exclude-process; "
                        + "when the owner cannot be seen (another container), when its port is one of the mesh's own ports. "
                        + "Ports given with --exclude-port never count, whoever holds them.",
                "With --source envoy: waits until Envoy's listeners carry no downstream connection (its admin API's "
                        + "downstream_cx_active, without the admin, internal and Istio 15021/15090 listeners); Envoy without "
                        + "those stats falls back to the sockets, never to zero. --source both: both must be drained.",
                "",
                "Exit codes: 0 drained, 1 still open (or unknown) at the timeout, or the socket table cannot be read; 2 bad usage.",
                "",
                "Examples:",
                "  In the proxy container's preStop hook (replaces the netstat loop):",
                "    sidecar-wait drain --timeout 25s",
                "  Or until the app on port 8080 has closed its listener and connections:",
                "    sidecar-wait drain --port 8080 --timeout 25s",
                "  In the app container's preStop hook: hold 5s while the mesh stops routing",
                "  here (the app's own port stays open until the SIGTERM this hook holds",
                "  back, so it must not count):",
                "    sidecar-wait drain --min 5s --exclude-port 8080",
                "  In an Istio proxy's preStop hook, from Envoy's counts and the pod's sockets:",
                "    sidecar-wait drain --source both --timeout 40s",
                "  A native istio-proxy's preStop: once the app on 8080 has let go, ask Envoy",
                "  for the inbound-only graceful drain (outbound stays up until then):",
                "    sidecar-wait drain --port 8080 --graceful-envoy-after --timeout 40s",
                "  Plain Envoy (admin API on 9901), first asking it to drain inbound listeners:",
                "    sidecar-wait drain --mesh envoy --source envoy --graceful-envoy \\",
                "      --timeout 40s"})
/** drain's command line: its flags and help. DrainSettle settles them into a DrainPlan, which DrainRun runs. */
final class DrainCommand implements Subcommand {

    @Mixin
    LogOptions logging;

    @Mixin
    MeshOption meshOption;

    @Option(names = "--port", paramLabel = "PORT", converter = Converters.PortNumber.class,
            description = "Only these local ports (repeatable); then established connections on them count too.")
    List<Integer> ports = new ArrayList<>();

    @Option(names = "--exclude-process", paramLabel = "NAMES", split = ",",
            description = "The proxy's process names, whose sockets never count. Default: the mesh's (istio: envoy,pilot-agent; "
                    + "linkerd: linkerd2-proxy; envoy: envoy).")
    List<String> excludeProcesses;

    @Option(names = "--exclude-port", paramLabel = "PORT", converter = Converters.PortNumber.class,
            description = "Ports that never count, whoever holds them (repeatable). The mesh's own ports are excluded too when "
                    + "their owner cannot be seen (istio: 15000, 15001, 15004, 15006, 15008, 15009, 15020, 15021, 15053, 15090; "
                    + "linkerd: 4140, 4143, 4190, 4191; envoy: 9901).")
    List<Integer> excludePorts = new ArrayList<>();

    @Option(names = "--min", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            description = "Hold at least this long, so the mesh stops routing to this pod first. Env: SIDECAR_WAIT_DRAIN_MIN. Default: 3s.")
    Duration min;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Give up after this long; keep it under terminationGracePeriodSeconds. Env: SIDECAR_WAIT_DRAIN_TIMEOUT. Default: 30s.")
    Duration timeout;

    @Option(names = "--period", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Time between looks. Env: SIDECAR_WAIT_DRAIN_PERIOD. Default: 1s.")
    Duration period;

    @Option(names = "--source", paramLabel = "proc|envoy|both", converter = Converters.SourceChoice.class,
            description = "What counts as still open: the pod's sockets in /proc (proc), Envoy's own count of active "
                    + "downstream connections from its admin API (envoy), or both must be drained (both). "
                    + "Env: SIDECAR_WAIT_DRAIN_SOURCE. Default: proc.")
    Source source;

    @Option(names = "--graceful-envoy",
            description = "First ask Envoy to drain its inbound listeners (POST /drain_listeners?inboundonly&graceful, "
                    + "what Istio's agent sends on SIGTERM): for plain Envoy, or a proxy whose agent does not.")
    boolean gracefulEnvoy;

    @Option(names = "--graceful-envoy-after",
            description = "Once drained, ask Envoy to drain its inbound listeners gracefully (the same POST): the "
                    + "preStop for a native istio-proxy, with --port the app's port, so the proxy keeps carrying the "
                    + "app's requests, and its outbound calls, until the app has let go (see docs/drain.md).")
    boolean gracefulEnvoyAfter;

    @Mixin
    AdminOption admin;

    @Mixin
    TlsOptions tls;

    /** The --source values; the command line's own, so that picocli's model made at build time holds cli classes only. */
    enum Source { PROC, ENVOY, BOTH }

    @Override
    public int run(Context context) throws InterruptedException {
        Env env = new Env(context.env());
        Log log = logging.log(context, env);
        DrainPlan plan = DrainSettle.settle(this, env);
        try {
            return new DrainRun(context.clock(), log, PodMesh.proc(), plan).run();
        } catch (DrainRun.NeedsAdminApi e) {
            throw new UsageError(e.getMessage());
        }
    }
}
