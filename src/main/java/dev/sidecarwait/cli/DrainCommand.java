package dev.sidecarwait.cli;

import dev.sidecarwait.drain.DrainPolicy;
import dev.sidecarwait.drain.Drainer;
import dev.sidecarwait.drain.EnvoyConnections;
import dev.sidecarwait.drain.Reading;
import dev.sidecarwait.drain.SocketOwners;
import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.EnvoyListeners;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.output.Elapsed;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpSocket;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
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

    enum Source { PROC, ENVOY, BOTH }

    @Override
    public int run(Context context) throws InterruptedException {
        Path proc = Path.of("/proc");
        Env env = new Env(context.env());
        Log log = logging.log(context, env);
        Set<Integer> portSet = new LinkedHashSet<>(ports); // each checked by its converter
        Set<Integer> excluded = new LinkedHashSet<>(excludePorts);
        MeshOption.Choice choice = meshOption.resolve(env);
        Duration atLeast = min != null ? min : orDefault(env.parse("SIDECAR_WAIT_DRAIN_MIN", Durations::parse), Duration.ofSeconds(3));
        Duration atMost = Settings.duration("--timeout", timeout, null, null, null, env, "SIDECAR_WAIT_DRAIN_TIMEOUT", Duration.ofSeconds(30));
        Duration every = Settings.duration("--period", period, null, null, null, env, "SIDECAR_WAIT_DRAIN_PERIOD", Duration.ofSeconds(1));
        if (atMost.compareTo(atLeast) < 0) {
            throw new UsageError("--timeout (" + Durations.format(atMost) + ") must not be shorter than --min ("
                    + Durations.format(atLeast) + ")");
        }
        if (gracefulEnvoy && gracefulEnvoyAfter) {
            throw new UsageError("--graceful-envoy asks Envoy to drain first, --graceful-envoy-after once drained; give one");
        }
        Source from = source != null ? source : orDefault(env.parse("SIDECAR_WAIT_DRAIN_SOURCE", value -> Choices.parse(Source.values(), value)), Source.PROC);
        AdminOption.Setting adminSetting = admin.settle(env);

        PodMesh pod;
        try {
            pod = PodMesh.now(choice, new Detector(context.clock(), proc));
        } catch (IOException e) {
            log.error("Cannot read the socket table under " + proc + ": " + e.getMessage());
            return 1;
        }
        Mesh mesh = pod.mesh();
        if (pod.detected() != null) {
            log.info(pod.detectedLine(null));
        }
        Set<String> processes = new LinkedHashSet<>(excludeProcesses != null ? excludeProcesses
                : mesh == null ? List.of() : mesh.proxyProcesses());
        processes.removeIf(String::isBlank);
        List<Integer> proxyPorts = mesh == null ? List.of() : mesh.proxyPorts();
        Target.Http adminUrl = adminSetting.forMesh(mesh);
        boolean asksEnvoy = from != Source.PROC || gracefulEnvoy || gracefulEnvoyAfter;
        if (asksEnvoy && adminUrl == null) {
            String off = adminSetting.turnedOffBy();
            String asker = gracefulEnvoy ? "--graceful-envoy" : gracefulEnvoyAfter ? "--graceful-envoy-after"
                    : "--source " + from.name().toLowerCase(Locale.ROOT);
            throw new UsageError(asker + " needs Envoy's admin API, and " + (off != null ? off + " turns it off"
                    : mesh == null ? "--mesh auto found no mesh in this pod"
                    : "the " + mesh.name().toLowerCase(Locale.ROOT) + " preset has none (its proxy is not Envoy)")
                    + "; give its URL with --admin-url");
        }

        ProcNetTcp table = new ProcNetTcp(proc);
        SocketOwners owners = new SocketOwners(proc);
        DrainPolicy policy = new DrainPolicy(portSet, processes, new LinkedHashSet<>(proxyPorts), excluded);
        AtomicReference<Set<String>> excludedHolders = new AtomicReference<>(Set.of());
        Drainer.Look sockets = () -> {
            try {
                List<TcpSocket> all = table.read();
                Map<Long, SocketOwners.Owner> seen = owners.of(policy.candidates(all));
                excludedHolders.set(policy.excludedHolders(all, seen));
                return Reading.holding(policy.stillOpen(all, seen).stream()
                        .map(DrainPolicy.Open::toString).collect(Collectors.toList()));
            } catch (IOException e) {
                return Reading.unknown("cannot read the socket table under " + proc + ": " + e.getMessage());
            }
        };
        String socketsRule = portSet.isEmpty() ? "no application socket is listening"
                : "nothing is listening or connected on port " + portSet.stream().map(String::valueOf).collect(Collectors.joining(", "));
        Set<Integer> meshOwn = new LinkedHashSet<>(proxyPorts);
        meshOwn.retainAll(Set.of(15021, 15090)); // Istio's health and Prometheus listeners carry no app traffic
        meshOwn.addAll(excluded);
        EnvoyListeners listeners = adminUrl == null ? null : new EnvoyListeners(context.clock(), adminUrl, Duration.ofSeconds(1));
        EnvoyConnections envoy = from == Source.PROC ? null : new EnvoyConnections(context.clock(), adminUrl,
                Duration.ofSeconds(1), meshOwn, proc, processes, from == Source.BOTH ? Reading::clear : sockets, log::warn, log::info);
        String envoyRule = "Envoy's listeners at " + (adminUrl == null ? "" : adminUrl.text()) + " carry no downstream "
                + "connection (admin and internal listeners" + (meshOwn.isEmpty() ? "" : " and those on port "
                + meshOwn.stream().map(String::valueOf).collect(Collectors.joining(", "))) + " left out; the pod's sockets "
                + "if Envoy has no such stats)";
        Drainer.Look look = switch (from) {
            case PROC -> sockets;
            case ENVOY -> envoy;
            case BOTH -> () -> Reading.both(envoy.look(), sockets.look());
        };
        String rule = switch (from) {
            case PROC -> socketsRule;
            case ENVOY -> envoyRule;
            case BOTH -> envoyRule + ", and " + socketsRule;
        };

        try {
            table.read();
        } catch (IOException e) {
            log.error("Cannot read the socket table under " + proc + ": " + e.getMessage());
            return 1;
        }
        log.info("Draining (source: " + from.name().toLowerCase(Locale.ROOT) + "): waiting until " + rule + "; at least "
                + Durations.inSeconds(atLeast) + ", looking every " + Durations.inSeconds(every) + ", at most "
                + Durations.inSeconds(atMost) + (gracefulEnvoyAfter ? "; then asking Envoy to drain its inbound listeners" : "")
                + "...");
        if (gracefulEnvoy && !said(listeners.drainInbound(), log)) {
            log.debug("Draining all the same: Envoy's own drain was only a head start");
        }
        String[] said = {null};
        Drainer.Outcome outcome = new Drainer(context.clock(), look).drain(atLeast, atMost, every, reading -> {
            String now = reading.toString();
            if (!now.equals(said[0])) {
                said[0] = now;
                if (reading.known()) {
                    log.info("Still open: " + now);
                } else {
                    log.warn("Still open: " + now);
                }
            } else {
                log.debug("Still open: " + now);
            }
        });
        if (outcome.drained()) {
            log.info("Drained after " + Elapsed.of(outcome.elapsed()) + ": "
                    + decided(from, envoy, adminUrl, socketsEnded(socketsRule, portSet, excludedHolders.get())));
            return !gracefulEnvoyAfter || said(listeners.drainInbound(), log) ? 0 : 1;
        }
        log.error("Gave up after " + Elapsed.of(atMost) + "; still open: " + outcome.last());
        return 1;
    }

    /** Logs Envoy's answer to a drain request; whether it accepted. */
    private static boolean said(EnvoyListeners.Answer answer, Log log) {
        if (answer.accepted()) {
            log.info(answer.words());
        } else {
            log.warn(answer.words());
        }
        return answer.accepted();
    }

    /** What the drain ended on, as it was decided: Envoy's counts, the pod's sockets in their stead, or both. */
    private static String decided(Source from, EnvoyConnections envoy, Target.Http adminUrl, String socketsRule) {
        if (from == Source.PROC) {
            return socketsRule;
        }
        String counts = "Envoy's listeners at " + adminUrl.text() + " carry no downstream connection";
        return switch (envoy.basis()) {
            case COUNTS -> from == Source.BOTH ? counts + ", and " + socketsRule : counts;
            case NO_COUNTS -> socketsRule + " (Envoy reports no downstream_cx_active, so the pod's sockets decided)";
            case EXITED -> "Envoy has exited" + (from == Source.BOTH ? ", and " + socketsRule : "");
        };
    }

    /** The sockets' rule as the drain ended on it: where excluded processes still held the ports, it names them. */
    private static String socketsEnded(String socketsRule, Set<Integer> ports, Set<String> excludedHolders) {
        if (excludedHolders.isEmpty()) {
            return socketsRule;
        }
        String holders = " (" + String.join(", ", excludedHolders) + ")";
        return ports.isEmpty() ? "only excluded processes have a listening socket" + holders
                : "only excluded processes are listening or connected on port "
                + ports.stream().map(String::valueOf).collect(Collectors.joining(", ")) + holders;
    }

    private static <T> T orDefault(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
