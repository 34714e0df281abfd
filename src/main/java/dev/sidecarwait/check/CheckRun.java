package dev.sidecarwait.check;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.kube.KubeProber;
import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.EnvoyAdmin;
import dev.sidecarwait.mesh.MeshDefaults;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.CheckReport;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Prober;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.wire.Timeout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a settled {@link CheckPlan}: one look at every target (and, for an Envoy sidecar, its own account of why it is
 * not ready), reported; with watch, again every period until every target is ready or the time is up.
 */
public final class CheckRun {

    private final Clock clock;
    private final PrintStream out;
    private final PrintStream err;
    private final Path proc;
    private final CheckPlan plan;

    public CheckRun(Clock clock, PrintStream out, PrintStream err, Path proc, CheckPlan plan) {
        this.clock = clock;
        this.out = out;
        this.err = err;
        this.proc = proc;
        this.plan = plan;
    }

    /** 0 when every target is ready, 1 when not (or the pod's sockets cannot be read). */
    public int run() throws InterruptedException {
        Detector detector = new Detector(clock, proc);
        EnvoyAdmin envoy = new EnvoyAdmin(clock, plan.tls());
        long deadline = clock.nanoTime() + (plan.atMost() == null ? 0 : plan.atMost().toNanos());
        while (true) {
            long start = clock.nanoTime();
            PodMesh pod;
            try {
                pod = PodMesh.now(plan.preset(), plan.auto(), detector); // again every look: a sidecar may bind its ports later
            } catch (IOException e) {
                err.println(PodMesh.unreadable(e));
                return 1;
            }
            CheckReport report = look(pod, envoy, deadline);
            switch (plan.output()) {
                case TEXT -> report.printText(out, plan.verbose());
                case JSON -> report.printJson(out);
                case NONE -> { } // the exit code says it
            }
            if (report.allReady()) {
                return 0;
            }
            long next = start + plan.every().toNanos();
            if (!plan.watch() || plan.atMost() != null && next - deadline >= 0) {
                return 1;
            }
            clock.sleep(Duration.ofNanos(Math.max(0, next - clock.nanoTime())));
        }
    }

    private CheckReport look(PodMesh pod, EnvoyAdmin envoy, long deadline) {
        List<Target> targets = MeshDefaults.targets(plan.given(), pod.mesh());
        NetworkProber network = new NetworkProber(clock, MeshDefaults.expectedStatus(plan.status(), pod.mesh()), plan.tls());
        Prober prober = plan.kube() == null ? network : new KubeProber(network, plan.kube(), clock, Resolver.ofSystem(clock), false);
        // Envoy is asked why only about Envoy: a check of dependencies alone has no proxy to explain, unless asked.
        boolean askEnvoy = plan.verbose() || plan.admin().given()
                || pod.mesh() != null && targets.stream().anyMatch(pod.mesh()::ownEndpoint);
        Target.Http admin = askEnvoy ? plan.admin().forMesh(pod.mesh()) : null;
        List<ProbeResult> results = new ArrayList<>();
        for (Target target : targets) {
            ProbeResult result = network.explained(prober.probe(target, within(deadline)), within(deadline));
            String unanswered = pod.unanswered(result);
            results.add(unanswered.isEmpty() ? result : new ProbeResult(result.target(), false, 0,
                    result.detail() + unanswered, result.bodyLine(), result.latency()));
        }
        prober.finished();
        EnvoyAdmin.Diagnosis why = admin == null ? null : envoy.diagnose(admin, within(deadline).duration());
        return new CheckReport(results, why, clock.now(), pod.detected() == null ? null : pod.detected().describe(),
                targets.stream().anyMatch(Target::usesTls) ? plan.tls().describe() : null);
    }

    /** The request timeout, or what is left of the check's time when that is less. */
    private Timeout within(long deadline) {
        return plan.atMost() == null ? Timeout.of(plan.requestTimeout())
                : Timeout.within(plan.requestTimeout(), Duration.ofNanos(Math.max(deadline - clock.nanoTime(), 1_000_000)));
    }
}
