package dev.sidecarwait.cli;

import dev.sidecarwait.output.Awaited;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.output.TerminationLog;
import dev.sidecarwait.output.WaitSummary;
import dev.sidecarwait.probe.EnvoyAdmin;
import dev.sidecarwait.probe.NetworkProber;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Waiter;
import dev.sidecarwait.process.ChildSignaller;
import dev.sidecarwait.process.ForwardedSignals;
import dev.sidecarwait.process.Handover;
import dev.sidecarwait.process.ProcessReplacer;
import dev.sidecarwait.process.SidecarQuit;
import dev.sidecarwait.process.Supervisor;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "wait", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = {"Wait until the proxy (and any dependency) is ready: a drop-in for 'pilot-agent wait'.",
                "With a command after --, then start it as the container's entrypoint, with this process's stdin, stdout, "
                        + "stderr, environment, working directory and arguments. The native binary hands the process over to "
                        + "it (exec): the same PID, signals straight to the command, its exit code the process's, nothing of "
                        + "sidecar-wait left running. It stays as the command's parent instead (supervises it) with "
                        + "--supervise, when a quit URL must be POSTed after the command, and on the JVM: then SIGTERM, "
                        + "SIGINT, SIGHUP, SIGUSR1, SIGUSR2 (and SIGQUIT in the native build) are forwarded, orphans reaped "
                        + "as PID 1 in the native build, and the command's exit code kept."},
        footer = {"",
                "Exit codes: 0 ready (or skipped), 1 not ready before the timeout, 2 bad usage.",
                "With a command: the command's own code; 128+N if it was killed by signal N, or if signal N arrived while "
                        + "waiting (the command is then not started); 127 command not found; 126 not executable.",
                "",
                "The last log line always sums up: verdict, time, attempts per target, last errors, and the exit code or "
                        + "the hand-over to the command. When the wait fails, it also goes to /dev/termination-log (see "
                        + "--termination-log), shown by kubectl describe pod.",
                "",
                "Examples:",
                "  Istio postStart hook (pilot-agent's flags), its log also in kubectl logs:",
                "    sidecar-wait wait --timeoutSeconds 120 --log-to-pid1",
                "  Before starting an app in a shell entrypoint:",
                "    sidecar-wait wait --timeout 90s && exec start-app",
                "  Istio's health port, Linkerd, plain Envoy, a database through the mesh:",
                "    sidecar-wait wait --url http://localhost:15021/healthz/ready",
                "    sidecar-wait wait --mesh linkerd",
                "    sidecar-wait wait --mesh envoy --verbose   # says why Envoy is not ready",
                "    sidecar-wait wait --url postgres://orders-db:5432 --url redis://cache:6379",
                "  Same image on a laptop, where no sidecar exists:",
                "    sidecar-wait wait --skip-outside-kubernetes",
                "  As the container's entrypoint (its command and args):",
                "    sidecar-wait wait --timeout 90s -- start-app --flag",
                "  Staying as PID 1, for an app that starts children or ignores SIGTERM:",
                "    sidecar-wait wait --supervise -- start-app --flag",
                "  A Job that tells Istio's sidecar to quit when its command ends:",
                "    sidecar-wait wait --quit-sidecar -- run-batch --date today"})
final class WaitCommand implements Subcommand {

    enum OnTimeout { FAIL, CONTINUE }

    /** Half pilot-agent's 500 ms: an in-process probe costs about 2 ms of CPU (scripts/bench.sh). */
    static final Duration DEFAULT_PERIOD = Duration.ofMillis(250);

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
            description = "Time between attempts, start to start; the first goes out at once. Env: SIDECAR_WAIT_PERIOD. "
                    + "Default: 250ms (pilot-agent: 500ms; see docs/benchmark.md).")
    Duration period;

    @Option(names = "--periodMillis", paramLabel = "MILLIS",
            description = "pilot-agent's spelling of --period, in milliseconds.")
    Integer periodMillis;

    @Option(names = "--on-timeout", paramLabel = "fail|continue", converter = Converters.OnTimeoutChoice.class,
            description = "On timeout, fail (exit 1) or log a warning and exit 0. Env: SIDECAR_WAIT_ON_TIMEOUT. Default: fail.")
    OnTimeout onTimeout;

    @Option(names = "--quit-url", paramLabel = "URL", converter = Converters.TargetConverter.class,
            description = "After the command exits, POST here to make the sidecar exit too (Jobs); repeatable. Env: SIDECAR_WAIT_QUIT_URL.")
    List<Target> quitUrls = new ArrayList<>();

    @Option(names = "--quit-sidecar",
            description = "Shorthand for --quit-url with the mesh's quit URL (Istio: " + SidecarQuit.ISTIO_URL + ").")
    boolean quitSidecar;

    @Option(names = "--quit-timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Longest each quit POST may take. Env: SIDECAR_WAIT_QUIT_TIMEOUT. Default: 5s.")
    Duration quitTimeout;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "After --: the command to run once the proxy is ready, and its arguments.")
    List<String> command = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Option(names = TerminationLogSetting.FLAG, paramLabel = "PATH|none",
            description = "When the wait fails, write why here too: the container's terminationMessagePath, which kubectl "
                    + "describe pod shows. Env: SIDECAR_WAIT_TERMINATION_LOG. Default: /dev/termination-log when that file "
                    + "exists and is writable.")
    String terminationLogPath;

    @Option(names = "--supervise", negatable = true,
            description = "With a command: stay as its parent after the wait (forward signals, reap orphans as PID 1), "
                    + "instead of handing the process over to it as the native binary does by default; --no-supervise asks "
                    + "for the hand-over, which a quit URL rules out. Env: SIDECAR_WAIT_SUPERVISE (true/false).")
    Boolean supervise;

    @Option(names = "--skip-outside-kubernetes",
            description = "Do not wait when KUBERNETES_SERVICE_HOST is unset (a laptop, CI). Env: SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES.")
    boolean skipOutsideKubernetes;

    @Override
    public int run(Context context) throws Exception {
        Env env = new Env(context.env());
        Log log = logging.log(context, env);
        TerminationLog termination = TerminationLogSetting.resolve(terminationLogPath, env);
        return run(context, env, log, termination);
    }

    /** What the wait step concluded, for the last line. {@code progress} is null when it did not probe. */
    private record Ended(String verdict, Waiter.Outcome progress, String envoy, int exitCode) {
    }

    private int run(Context context, Env env, Log log, TerminationLog termination) throws Exception {
        List<Target> targets = probe.targets(env);
        Duration requestTimeout = probe.requestTimeout(env);
        Duration total = Settings.duration("--timeout", timeout, "--timeoutSeconds", timeoutSeconds, ChronoUnit.SECONDS,
                env, "SIDECAR_WAIT_TIMEOUT", Duration.ofSeconds(60));
        Duration every = Settings.duration("--period", period, "--periodMillis", periodMillis, ChronoUnit.MILLIS,
                env, "SIDECAR_WAIT_PERIOD", DEFAULT_PERIOD);
        OnTimeout whenLate = onTimeout != null ? onTimeout : env.parse("SIDECAR_WAIT_ON_TIMEOUT", value -> Choices.parse(OnTimeout.values(), value));
        boolean skipOutside = skipOutsideKubernetes || env.isTrue("SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES");
        boolean disabled = env.isTrue("SIDECAR_WAIT_DISABLED");
        Boolean supervised = supervise != null ? supervise
                : env.get("SIDECAR_WAIT_SUPERVISE") == null ? null : env.isTrue("SIDECAR_WAIT_SUPERVISE");
        String supervisedBy = supervise != null ? (supervise ? "--supervise" : "--no-supervise")
                : "SIDECAR_WAIT_SUPERVISE=" + env.get("SIDECAR_WAIT_SUPERVISE");
        NetworkProber prober = new NetworkProber(context.clock(), probe.expectedStatus(env));
        Target.Http admin = probe.adminUrl(env);
        List<Target.Http> quit = quitUrls(env);
        Duration quitEach = QuitOptions.timeout("--quit-timeout", quitTimeout, env);
        if (!command.isEmpty() && !spec.commandLine().getParseResult().originalArgs().contains("--")) {
            throw new UsageError("unexpected argument '" + command.get(0)
                    + "'; put the command to run after --, e.g. sidecar-wait wait -- start-app --flag");
        }
        if (!command.isEmpty() && command.get(0).isBlank()) {
            throw new UsageError("the command after -- is empty ('" + command.get(0) + "'); give the program to run, "
                    + "e.g. sidecar-wait wait -- start-app --flag");
        }
        if (command.isEmpty() && !quit.isEmpty()) {
            throw new UsageError("--quit-url and --quit-sidecar act when the command ends; give a command after --"
                    + " (or use 'sidecar-wait quit')");
        }
        if (command.isEmpty() && supervise != null) {
            throw new UsageError(supervisedBy + " is about the command after --, and there is none");
        }
        if (Boolean.FALSE.equals(supervised) && !quit.isEmpty()) {
            throw new UsageError(supervisedBy + " hands the process over to the command, so nothing can run after it: "
                    + "drop it, or drop --quit-url and --quit-sidecar");
        }

        Awaited awaited = awaited(targets, probe.meshOption.resolve(env));
        Waiter waiter = new Waiter(context.clock(), prober);
        AtomicReference<Ended> ended = new AtomicReference<>();
        Callable<Integer> waitStep = () -> {
            if (disabled) {
                log.info("SIDECAR_WAIT_DISABLED is true: not waiting for the proxy");
                ended.set(new Ended("skipped: SIDECAR_WAIT_DISABLED is true", null, null, 0));
            } else if (skipOutside && env.get("KUBERNETES_SERVICE_HOST") == null) {
                log.info("Not in Kubernetes (KUBERNETES_SERVICE_HOST is unset): not waiting for the proxy");
                ended.set(new Ended("skipped: not in Kubernetes (KUBERNETES_SERVICE_HOST is unset)", null, null, 0));
            } else {
                ended.set(waitForTargets(context, log, waiter, admin, targets, awaited, total, every, requestTimeout,
                        whenLate));
            }
            return ended.get().exitCode();
        };
        if (command.isEmpty()) {
            int code = waitStep.call();
            Ended how = ended.get();
            finish(log, termination, how.verdict(), how.progress(), how.envoy(), null, code, code != 0);
            return code;
        }

        ProcessReplacer replacer = context.process().replacer();
        Handover after = Handover.decide(supervised, supervisedBy, !quit.isEmpty(), replacer);
        if (after.warn()) {
            log.warn(after.why());
        } else {
            log.debug(after.why());
        }
        Supervisor supervisor = new Supervisor(log, ChildSignaller.forThisRuntime(), env.get("PATH"));
        List<String> trapped = ForwardedSignals.install(signal -> supervisor.signal(signal.getName(), signal.getNumber()));
        log.debug("Signals passed on to the command: " + String.join(", ", trapped));
        Supervisor.Result result = after.handOver()
                ? supervisor.handOver(waitStep, command, replacer, () -> {
                    Ended how = ended.get();
                    log.info(WaitSummary.handedOver(how.verdict(), how.progress(), how.envoy(), command.get(0),
                            ProcessHandle.current().pid()));
                })
                : supervisor.run(waitStep, command);
        if (!quit.isEmpty()) {
            new SidecarQuit(context.clock(), log).post(quit, quitEach);
        }
        Ended how = result.ending() == Supervisor.Ending.SIGNALLED_WHILE_WAITING || ended.get() == null
                ? new Ended("NOT READY, stopped by a signal", waiter.progress(), null, result.exitCode()) : ended.get();
        boolean waitFailed = result.ending() != Supervisor.Ending.COMMAND_EXITED && result.exitCode() != 0;
        finish(log, termination, how.verdict(), how.progress(), how.envoy(), result.what(), result.exitCode(), waitFailed);
        return result.exitCode();
    }

    /** The last line, every time; when the wait itself failed, also the termination message. */
    private static void finish(Log log, TerminationLog termination, String verdict, Waiter.Outcome progress, String envoy,
                               String command, int exitCode, boolean waitFailed) {
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

    private Ended waitForTargets(Context context, Log log, Waiter waiter, Target.Http admin, List<Target> targets,
                                 Awaited awaited, Duration total, Duration every, Duration requestTimeout, OnTimeout whenLate)
            throws InterruptedException {
        log.info(awaited.waiting(Durations.inSeconds(total)));
        long deadline = context.clock().nanoTime() + total.toNanos();
        EnvoyAdmin envoy = new EnvoyAdmin(context.clock());
        Waiter.Outcome outcome = waiter.await(targets, total, every, requestTimeout,
                failed -> log.debug("Not ready yet: " + describe(failed) + explanation(context, envoy, admin, log, requestTimeout, deadline)));
        if (outcome.ready()) {
            log.info(awaited.ready());
            return new Ended("ready", outcome, null, 0);
        }
        String message = awaited.timedOut(outcome.unready().stream().map(WaitCommand::describe)
                .collect(Collectors.joining("; ")));
        String why = null;
        if (admin != null) {
            EnvoyAdmin.Diagnosis diagnosis = envoy.diagnose(admin, requestTimeout.dividedBy(2));
            why = diagnosis.reachable() ? "Envoy: " + diagnosis.explanation() : null;
        }
        if (whenLate == OnTimeout.CONTINUE) {
            log.warn(message + " (continuing: --on-timeout continue)");
            return new Ended("NOT READY before the timeout, continuing (--on-timeout continue)", outcome, why, 0);
        }
        log.error(message);
        return new Ended("NOT READY before the timeout", outcome, why, 1);
    }

    /** With --verbose, why the proxy is not ready, in the time a request may take and never past the deadline. */
    private static String explanation(Context context, EnvoyAdmin envoy, Target.Http admin, Log log, Duration requestTimeout, long deadline) {
        long left = deadline - context.clock().nanoTime();
        if (admin == null || !log.isDebug() || left <= 0) {
            return "";
        }
        Duration budget = Duration.ofNanos(Math.min(requestTimeout.toNanos(), left) / 2);
        return " (" + envoy.diagnose(admin, budget).explanation() + ")";
    }

    /** The proxy's own readiness endpoints are HTTP on loopback; anything else is a dependency, named by its URL. */
    private static Awaited awaited(List<Target> targets, Mesh mesh) {
        boolean proxy = false;
        List<String> others = new ArrayList<>();
        for (Target target : targets) {
            if (target.proxyEndpoint()) {
                proxy = true;
            } else {
                others.add(target.text());
            }
        }
        return new Awaited(proxy ? (mesh == Mesh.LINKERD ? "Linkerd proxy" : "Envoy proxy") : null, others);
    }

    private List<Target.Http> quitUrls(Env env) {
        List<Target.Http> urls = new ArrayList<>(QuitOptions.httpOnly("--quit-url", quitUrls));
        if (urls.isEmpty()) {
            urls.addAll(QuitOptions.httpOnly("SIDECAR_WAIT_QUIT_URL", ProbeOptions.targetList(env, "SIDECAR_WAIT_QUIT_URL")));
        }
        if (quitSidecar) {
            urls.add((Target.Http) Target.parse(probe.meshOption.resolve(env).quitUrl));
        }
        return urls;
    }

    private static String describe(ProbeResult result) {
        return result.target().text() + ": " + result.detail();
    }
}
