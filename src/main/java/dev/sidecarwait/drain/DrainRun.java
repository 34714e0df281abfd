package dev.sidecarwait.drain;

import dev.sidecarwait.Clock;
import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.EnvoyListeners;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.Elapsed;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.output.Seconds;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpTableRow;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Runs a settled {@link DrainPlan}: find the data plane (auto), look at what still holds the pod (its sockets,
 * Envoy's counts, or both) until it has let go or the time is up, saying what it sees as it changes.
 */
public final class DrainRun {

    /** A setting that the data plane found leaves without what it needs: a usage error, said by the command line. */
    public static final class NeedsAdminApi extends RuntimeException {
        NeedsAdminApi(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * How the drain looks, and its rule in words; what the sockets' look last saw held by excluded processes. A plain
     * class: a record's methods would be code in the binary that nothing calls.
     */
    private static final class Watch {
        private final Drainer.Look look;
        private final String rule;
        private final String socketsRule;
        private final EnvoyConnections envoy;
        private final AtomicReference<Set<String>> excludedHolders;

        Watch(Drainer.Look look, String rule, String socketsRule, EnvoyConnections envoy,
              AtomicReference<Set<String>> excludedHolders) {
            this.look = look;
            this.rule = rule;
            this.socketsRule = socketsRule;
            this.envoy = envoy;
            this.excludedHolders = excludedHolders;
        }
    }

    /** Says what still holds the pod when it changes (a warning when it cannot be known), else at debug level. */
    private static final class StillOpen {
        private final Log log;
        private String last;

        StillOpen(Log log) {
            this.log = log;
        }

        void say(Reading reading) {
            String now = reading.toString();
            if (now.equals(last)) {
                log.debug("Still open: " + now);
            } else if (reading.known()) {
                log.info("Still open: " + now);
            } else {
                log.warn("Still open: " + now);
            }
            last = now;
        }
    }

    private final Clock clock;
    private final Log log;
    private final Path proc;
    private final DrainPlan plan;

    public DrainRun(Clock clock, Log log, Path proc, DrainPlan plan) {
        this.clock = clock;
        this.log = log;
        this.proc = proc;
        this.plan = plan;
    }

    public int run() throws InterruptedException {
        PodMesh pod;
        try {
            pod = PodMesh.now(plan.preset(), plan.auto(), new Detector(clock, proc));
        } catch (IOException e) {
            log.error("Cannot read the socket table under " + proc + ": " + e.getMessage());
            return 1;
        }
        Mesh mesh = pod.mesh();
        if (pod.detected() != null) {
            log.info(pod.detectedLine(null));
        }
        Target.Http adminUrl = plan.admin().forMesh(mesh);
        if (plan.asksEnvoy() && adminUrl == null) {
            throw new NeedsAdminApi(asker() + " needs Envoy's admin API, and " + whyNone(mesh) + "; give its URL with --admin-url");
        }
        String insecure = plan.tls().insecureWarning(adminUrl != null && adminUrl.verifiesTls() ? List.of(adminUrl.text()) : List.of());
        if (insecure != null) {
            log.warn(insecure);
        }
        ProcNetTcp table = new ProcNetTcp(proc);
        Watch watch = watch(mesh, table, adminUrl);
        try {
            table.read();
        } catch (IOException e) {
            log.error("Cannot read the socket table under " + proc + ": " + e.getMessage());
            return 1;
        }
        log.info("Draining (source: " + plan.source().name().toLowerCase(Locale.ROOT) + "): waiting until " + watch.rule
                + "; at least " + Seconds.of(plan.atLeast()) + ", looking every " + Seconds.of(plan.every())
                + ", at most " + Seconds.of(plan.atMost())
                + (plan.gracefulAfter() ? "; then asking Envoy to drain its inbound listeners" : "") + "...");
        EnvoyListeners listeners = adminUrl == null ? null : new EnvoyListeners(clock, adminUrl, Duration.ofSeconds(1), plan.tls());
        if (plan.gracefulFirst() && !said(listeners.drainInbound())) {
            log.debug("Draining all the same: Envoy's own drain was only a head start");
        }
        Drainer.Outcome outcome = new Drainer(clock, watch.look).drain(plan.atLeast(), plan.atMost(), plan.every(),
                new StillOpen(log)::say);
        if (outcome.drained()) {
            log.info("Drained after " + Elapsed.of(outcome.elapsed()) + ": " + decided(watch, adminUrl));
            return !plan.gracefulAfter() || said(listeners.drainInbound()) ? 0 : 1;
        }
        log.error("Gave up after " + Elapsed.of(plan.atMost()) + "; still open: " + outcome.last());
        return 1;
    }

    private String asker() {
        return plan.gracefulFirst() ? "--graceful-envoy" : plan.gracefulAfter() ? "--graceful-envoy-after"
                : "--source " + plan.source().name().toLowerCase(Locale.ROOT);
    }

    private String whyNone(Mesh mesh) {
        String off = plan.admin().turnedOffBy();
        return off != null ? off + " turns it off" : mesh == null ? "--mesh auto found no mesh in this pod"
                : "the " + mesh.name().toLowerCase(Locale.ROOT) + " preset has none (its proxy is not Envoy)";
    }

    /** The look the plan's source asks for, and its rule in words. */
    private Watch watch(Mesh mesh, ProcNetTcp table, Target.Http adminUrl) {
        Set<String> processes = plan.processes(mesh);
        List<Integer> proxyPorts = mesh == null ? List.of() : mesh.proxyPorts();
        SocketOwners owners = new SocketOwners(proc);
        DrainPolicy policy = new DrainPolicy(plan.ports(), processes, new LinkedHashSet<>(proxyPorts), plan.excludedPorts());
        AtomicReference<Set<String>> excludedHolders = new AtomicReference<>(Set.of());
        Drainer.Look sockets = () -> {
            try {
                List<TcpTableRow> all = table.read();
                Map<Long, SocketOwners.Owner> seen = owners.of(policy.candidates(all));
                excludedHolders.set(policy.excludedHolders(all, seen));
                return Reading.holding(policy.stillOpen(all, seen).stream()
                        .map(DrainPolicy.Open::toString).collect(Collectors.toList()));
            } catch (IOException e) {
                return Reading.unknown("cannot read the socket table under " + proc + ": " + e.getMessage());
            }
        };
        String socketsRule = plan.ports().isEmpty() ? "no application socket is listening"
                : "nothing is listening or connected on port " + joined(plan.ports());
        Set<Integer> meshOwn = new LinkedHashSet<>(proxyPorts);
        meshOwn.retainAll(Set.of(15021, 15090)); // Istio's health and Prometheus listeners carry no app traffic
        meshOwn.addAll(plan.excludedPorts());
        DrainPlan.Source from = plan.source();
        EnvoyConnections envoy = from == DrainPlan.Source.PROC ? null : new EnvoyConnections(clock, adminUrl,
                Duration.ofSeconds(1), meshOwn, proc, processes, from == DrainPlan.Source.BOTH ? Reading::clear : sockets,
                log::warn, log::info, plan.tls());
        String envoyRule = "Envoy's listeners at " + (adminUrl == null ? "" : adminUrl.text()) + " carry no downstream "
                + "connection (admin and internal listeners" + (meshOwn.isEmpty() ? "" : " and those on port "
                + joined(meshOwn)) + " left out; the pod's sockets if Envoy has no such stats)";
        return switch (from) {
            case PROC -> new Watch(sockets, socketsRule, socketsRule, null, excludedHolders);
            case ENVOY -> new Watch(envoy, envoyRule, socketsRule, envoy, excludedHolders);
            case BOTH -> new Watch(() -> Reading.both(envoy.look(), sockets.look()), envoyRule + ", and " + socketsRule,
                    socketsRule, envoy, excludedHolders);
        };
    }

    /** Logs Envoy's answer to a drain request; whether it accepted. */
    private boolean said(EnvoyListeners.Answer answer) {
        if (answer.accepted()) {
            log.info(answer.words());
        } else {
            log.warn(answer.words());
        }
        return answer.accepted();
    }

    /** What the drain ended on, as it was decided: Envoy's counts, the pod's sockets in their stead, or both. */
    private String decided(Watch watch, Target.Http adminUrl) {
        String socketsRule = socketsEnded(watch.socketsRule, watch.excludedHolders.get());
        DrainPlan.Source from = plan.source();
        if (from == DrainPlan.Source.PROC) {
            return socketsRule;
        }
        String counts = "Envoy's listeners at " + adminUrl.text() + " carry no downstream connection";
        return switch (watch.envoy.basis()) {
            case COUNTS -> from == DrainPlan.Source.BOTH ? counts + ", and " + socketsRule : counts;
            case NO_COUNTS -> socketsRule + " (Envoy reports no downstream_cx_active, so the pod's sockets decided)";
            case EXITED -> "Envoy has exited" + (from == DrainPlan.Source.BOTH ? ", and " + socketsRule : "");
        };
    }

    /** The sockets' rule as the drain ended on it: where excluded processes still held the ports, it names them. */
    private String socketsEnded(String socketsRule, Set<String> excludedHolders) {
        if (excludedHolders.isEmpty()) {
            return socketsRule;
        }
        String holders = " (" + String.join(", ", excludedHolders) + ")";
        return plan.ports().isEmpty() ? "only excluded processes have a listening socket" + holders
                : "only excluded processes are listening or connected on port " + joined(plan.ports()) + holders;
    }

    private static String joined(Set<Integer> ports) {
        return ports.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
