package dev.sidecarwait.startup;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.kube.KubeProber;
import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.EnvoyAdmin;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.Awaited;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.output.Seconds;
import dev.sidecarwait.output.TerminationLog;
import dev.sidecarwait.output.WaitSummary;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Waiter;
import dev.sidecarwait.process.ChildSignaller;
import dev.sidecarwait.process.Handover;
import dev.sidecarwait.process.ParentChain;
import dev.sidecarwait.process.ProcessReplacer;
import dev.sidecarwait.process.StopSignal;
import dev.sidecarwait.process.Supervisor;
import dev.sidecarwait.wire.Timeout;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/** Runs a settled {@link WaitPlan}: find the data plane (auto), wait, then run or hand over to the command. */
public final class WaitRun {

    /** What the wait step concluded, for the last line. {@code progress} is null when it did not probe. */
    private record Ended(String verdict, Waiter.Outcome progress, String envoy, int exitCode) {
    }

    private final Clock clock;
    private final Map<String, String> env;
    private final ProcessReplacer replacer;
    private final Log log;
    private final TerminationLog termination;
    private final WaitPlan plan;
    private final IntConsumer exit;
    private final AtomicReference<Ended> ended = new AtomicReference<>();
    private final AtomicReference<PodMesh> pod = new AtomicReference<>();
    private volatile Waiter waiter; // read by the thread a signal ends the wait on
    private volatile String awaitedNow; // likewise: what is awaited, once it is known

    /**
     * {@code env}: the process's environment (PATH, KUBERNETES_SERVICE_HOST); {@code replacer}: null on the JVM;
     * {@code exit}: how a signal ends the process, once the last words of a wait with no command are written.
     */
    public WaitRun(Clock clock, Map<String, String> env, ProcessReplacer replacer, Log log, TerminationLog termination,
                   WaitPlan plan, IntConsumer exit) {
        this.clock = clock;
        this.exit = exit;
        this.env = env;
        this.replacer = replacer;
        this.log = log;
        this.termination = termination;
        this.plan = plan;
    }

    public int run() throws Exception {
        if (plan.preset() == Mesh.AMBIENT && !plan.disabled() && !skippedOutside() && !plan.allowPostStart()) {
            PostStartGuard.check(new ParentChain(PodMesh.proc()));
        }
        Callable<Integer> waitStep = () -> {
            ended.set(waitStep());
            return ended.get().exitCode();
        };
        if (plan.command().isEmpty()) {
            awaitedNow = awaitedAtFirst();
            int code = new WaitAlone(log, exit, () -> awaitedNow, (signal, exitCode) -> {
                Ended how = signalled(exitCode);
                finish(how.verdict(), how.progress(), null, "SIG" + signal + " arrived while waiting", exitCode, true);
            }).run(waitStep);
            Ended how = ended.get();
            finish(how.verdict(), how.progress(), how.envoy(), null, code, code != 0);
            return code;
        }

        Handover after = Handover.decide(plan.supervised(), plan.supervisedBy(), plan.quits(), replacer);
        switch (after.level()) {
            case WARN -> log.warn(after.why());
            case INFO -> log.info(after.why());
            default -> log.debug(after.why());
        }
        List<String> command = plan.command();
        Supervisor supervisor = supervisor(after.handOver(), command.get(0));
        Supervisor.Result result = after.handOver()
                ? supervisor.handOver(waitStep, command, replacer, () -> {
                    Ended how = ended.get();
                    log.info(WaitSummary.handedOver(how.verdict(), how.progress(), how.envoy(), command.get(0),
                            ProcessHandle.current().pid()));
                })
                : supervisor.run(waitStep, command, replacer);
        if (plan.quits()) {
            PodMesh found = pod.get();
            QuitAfterCommand.post(plan, found == null ? plan.preset() : found.mesh(), clock, log);
        }
        Ended how = result.ending() == Supervisor.Ending.SIGNALLED_WHILE_WAITING || ended.get() == null
                ? signalled(result.exitCode()) : ended.get();
        boolean waitFailed = result.ending() != Supervisor.Ending.COMMAND_EXITED && result.exitCode() != 0;
        finish(how.verdict(), how.progress(), how.envoy(), result.what(), result.exitCode(), waitFailed);
        return result.exitCode();
    }

    private Ended signalled(int exitCode) {
        return new Ended("NOT READY, stopped by a signal", waiter == null ? null : waiter.progress(), null, exitCode);
    }

    /** What is awaited, in words, until the wait knows better (the data plane found). */
    private String awaitedAtFirst() {
        return plan.auto() ? "the pod's data plane to be found (--mesh auto)"
                : Awaited.of(plan.targets(plan.preset()), plan.preset()).subject();
    }

    /** The supervisor, with a handler for every signal it takes; says what becomes of signals, at --verbose. */
    private Supervisor supervisor(boolean handOver, String program) {
        StopSignal onStop = plan.onStop() == null ? StopSignal.TERM : plan.onStop();
        awaitedNow = awaitedAtFirst();
        Supervisor supervisor = new Supervisor(clock, log, ChildSignaller.forThisRuntime(), env.get("PATH"), onStop, () -> awaitedNow);
        List<String> trapped = supervisor.takeSignals();
        log.debug(handOver ? "Until the hand-over a signal that would end a process ends the wait (exit 128+N); after it, "
                + "nothing is passed on: the command receives every signal itself"
                : "Signals passed on to the command: " + String.join(", ", trapped));
        if (plan.onStop() != null) {
            log.info("SIGTERM will be passed on to " + program + " as " + onStop + " (" + plan.onStopBy() + ")");
        }
        return supervisor;
    }

    private boolean skippedOutside() {
        return plan.skipOutside() && env.get("KUBERNETES_SERVICE_HOST") == null;
    }

    private Ended waitStep() throws InterruptedException {
        if (plan.disabled()) {
            log.info("SIDECAR_WAIT_DISABLED is true: not waiting for " + skipped());
            return new Ended("skipped: SIDECAR_WAIT_DISABLED is true", null, null, 0);
        }
        if (skippedOutside()) {
            log.info("Not in Kubernetes (KUBERNETES_SERVICE_HOST is unset): not waiting for " + skipped());
            return new Ended("skipped: not in Kubernetes (KUBERNETES_SERVICE_HOST is unset)", null, null, 0);
        }
        PodMesh found;
        if (plan.auto()) {
            try {
                found = PodMesh.of(new Detector(clock, PodMesh.proc()).within(plan.detectGrace(), plan.every()));
            } catch (IOException e) {
                log.error(PodMesh.unreadable(e));
                return new Ended("NOT READY: the socket table cannot be read", null, null, 1);
            }
            pod.set(found);
            if (found.mesh() == Mesh.AMBIENT && !plan.allowPostStart()) {
                try {
                    PostStartGuard.check(new ParentChain(PodMesh.proc()));
                } catch (PostStartGuard.Refused refused) {
                    log.error(found.detectedLine(null) + "; " + refused.getMessage());
                    return new Ended("refused: an ambient wait outside the entrypoint deadlocks the pod", null, null, 2);
                }
            }
            if (found.mesh() == null && plan.given().isEmpty()) {
                log.info(found.detectedLine(Seconds.of(plan.detectGrace())) + ": not waiting for a proxy");
                return new Ended("skipped: no mesh in this pod", null, null, 0);
            }
            log.info(found.detectedLine(Seconds.of(plan.detectGrace())) + (found.mesh() == null ? ": waiting for the dependencies only" : ""));
        } else {
            found = new PodMesh(plan.preset(), null);
            pod.set(found);
        }
        return waitForTargets(found);
    }

    /** What a skipped wait would have waited for: the proxy, or the URLs given (which replace it). */
    private String skipped() {
        return plan.given().isEmpty() ? "the proxy"
                : plan.given().stream().map(Target::text).collect(Collectors.joining(", "));
    }

    private Ended waitForTargets(PodMesh found) throws InterruptedException {
        List<Target> targets = plan.targets(found.mesh());
        Target.Http admin = plan.adminUrl(found.mesh());
        Duration requestTimeout = plan.requestTimeout();
        Awaited awaited = Awaited.of(targets, found.mesh());
        awaitedNow = awaited.subject();
        NetworkProber prober = new NetworkProber(clock, plan.expected(found.mesh()), plan.tls());
        waiter = new Waiter(clock, plan.kube() == null ? prober : new KubeProber(prober, plan.kube(), clock, Resolver.ofSystem(clock), true));
        log.info(awaited.waiting(Seconds.plural(plan.total())) + Awaited.proves(found.mesh(), targets));
        // a plain wait runs none of this: each new stretch of code read costs resident pages
        String insecure = plan.tls().insecure() ? plan.tls().insecureWarning(plan.verifiedUrls(found.mesh())) : null;
        if (insecure != null) {
            log.warn(insecure);
        }
        long deadline = clock.nanoTime() + plan.total().toNanos();
        EnvoyAdmin envoy = new EnvoyAdmin(clock, plan.tls());
        Waiter.Outcome outcome = waiter.await(targets, plan.total(), plan.every(), requestTimeout,
                new FailedAttempts(log, clock, found, envoy, admin, requestTimeout, deadline));
        if (outcome.ready()) {
            log.info(awaited.ready(waiter.readyResults()));
            return new Ended("ready", outcome, null, 0);
        }
        ProbeResult failed = outcome.unready().stream().filter(ProbeResult::failedForGood).findFirst().orElse(null);
        if (failed != null) {
            log.error(FailedAttempts.describe(failed, found) + ": it will not be ready, not waiting any longer");
            return new Ended("NOT READY: " + failed.target().text() + " failed for good", outcome, null, 1);
        }
        outcome = new Waiter.Outcome(false, outcome.unready().stream().map(last -> prober.explained(last, Timeout.of(requestTimeout)))
                .toList(), outcome.attempts(), outcome.elapsed());
        String message = awaited.timedOut(outcome.unready().stream().map(result -> FailedAttempts.describe(result, found))
                .collect(Collectors.joining("; ")));
        String why = null;
        if (admin != null) {
            EnvoyAdmin.Diagnosis diagnosis = envoy.diagnose(admin, requestTimeout.dividedBy(2));
            why = diagnosis.reachable() ? "Envoy: " + diagnosis.explanation() : null;
        }
        if (plan.continueOnTimeout()) {
            log.warn(message + " (continuing: --on-timeout continue)");
            return new Ended("NOT READY before the timeout, continuing (--on-timeout continue)", outcome, why, 0);
        }
        log.error(message);
        return new Ended("NOT READY before the timeout", outcome, why, 1);
    }

    /** The last line, every time; when the wait itself failed, also the termination message. */
    private void finish(String verdict, Waiter.Outcome progress, String envoy, String command, int exitCode, boolean waitFailed) {
        String summary = WaitSummary.line(verdict, progress, envoy, command, exitCode);
        if (exitCode == 0) {
            log.info(summary);
        } else {
            log.error(summary);
        }
        if (waitFailed) {
            termination.write(summary, log::warn);
        }
    }

}
