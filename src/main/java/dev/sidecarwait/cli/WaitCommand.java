package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.SidecarQuit;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.output.TerminationLog;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.startup.PostStartGuard;
import dev.sidecarwait.startup.WaitPlan;
import dev.sidecarwait.startup.WaitRun;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
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
                        + "--supervise, when a quit URL must be POSTed after the command, and on the JVM: then every signal "
                        + "a container may be stopped with is forwarded (the JVM cannot take SIGQUIT and the real-time "
                        + "ones; docs/wrapper.md), orphans reaped as PID 1 in the native build, and the command's exit code "
                        + "kept."},
        footer = {"",
                "Exit codes: 0 ready (or skipped), 1 not ready before the timeout, 2 bad usage (or an ambient wait refused "
                        + "outside the entrypoint, see --allow-post-start), 128+N when signal N ended the wait.",
                "With a command: the command's own code; 128+N if it was killed by signal N, or if signal N arrived while "
                        + "waiting (the command is then not started); 127 command not found; 126 not executable.",
                "",
                "The last log line always sums up: verdict, time, attempts per target, last errors, and the exit code or "
                        + "the hand-over to the command. When the wait fails, it also goes to /dev/termination-log (see "
                        + "--termination-log), shown by kubectl describe pod.",
                "",
                "pilot-agent's root flags are taken too, in both spellings (--log_as_json, --log_output_level, --log_target, "
                        + "--log_stacktrace_level, --log_caller, --vklog): docs/wait.md says what each does here.",
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
                "  A StatefulSet pod's DNS record, published once that pod is Ready:",
                "    sidecar-wait wait --url dns://db-0.db -- start-app",
                "  Any kind of pod (Istio sidecar, ambient, Linkerd; none: no wait):",
                "    sidecar-wait wait --mesh auto -- start-app",
                "  Istio ambient, through ztunnel to the database (never postStart):",
                "    sidecar-wait wait --mesh ambient --url postgres://db:5432 -- start-app",
                "  Same image on a laptop, where no sidecar exists:",
                "    sidecar-wait wait --skip-outside-kubernetes",
                "  As the container's entrypoint (its command and args):",
                "    sidecar-wait wait --timeout 90s -- start-app --flag",
                "  Staying as PID 1, for an app that starts children or ignores SIGTERM:",
                "    sidecar-wait wait --supervise -- start-app --flag",
                "  nginx, stopped gracefully (SIGQUIT) when the kubelet sends SIGTERM:",
                "    sidecar-wait wait --stop-signal QUIT -- nginx -g 'daemon off;'",
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

    @Mixin
    PilotAgentFlags pilotAgent;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Give up after this long. Env: SIDECAR_WAIT_TIMEOUT. Default: 60s.")
    Duration timeout;

    @Option(names = "--timeoutSeconds", paramLabel = "SECONDS", converter = Converters.WholeNumber.class,
            description = "pilot-agent's spelling of --timeout, in seconds.")
    Integer timeoutSeconds;

    @Option(names = "--period", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Time between attempts, start to start; the first goes out at once. Env: SIDECAR_WAIT_PERIOD. "
                    + "Default: 250ms (pilot-agent: 500ms; see docs/benchmark.md).")
    Duration period;

    @Option(names = "--periodMillis", paramLabel = "MILLIS", converter = Converters.WholeNumber.class,
            description = "pilot-agent's spelling of --period, in milliseconds.")
    Integer periodMillis;

    @Option(names = "--on-timeout", paramLabel = "fail|continue", converter = Converters.OnTimeoutChoice.class,
            description = "On timeout, fail (exit 1) or log a warning and exit 0. Env: SIDECAR_WAIT_ON_TIMEOUT. Default: fail.")
    OnTimeout onTimeout;

    @Option(names = "--quit-url", paramLabel = "URL", converter = Converters.HttpSettingConverter.class,
            description = "After the command exits, POST here to make the sidecar exit too (Jobs); repeatable. Env: SIDECAR_WAIT_QUIT_URL.")
    List<Target> quitUrls = new ArrayList<>();

    @Option(names = "--quit-sidecar",
            description = "Shorthand for --quit-url with the mesh's quit URL (Istio: " + SidecarQuit.ISTIO_URL + "). "
                    + "Not for a native sidecar: the kubelet stops it after the Job, and restarts one quit early.")
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

    @Mixin
    SuperviseOptions supervision;

    @Option(names = "--skip-outside-kubernetes",
            description = "Do not wait when KUBERNETES_SERVICE_HOST is unset (a laptop, CI). Env: SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES.")
    boolean skipOutsideKubernetes;

    @Option(names = "--detect-grace", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            description = "With --mesh auto: how long to look for a proxy's ports before concluding that the pod has "
                    + "no mesh (a sidecar may bind them after the app starts); then the wait is skipped. "
                    + "Env: SIDECAR_WAIT_DETECT_GRACE. Default: 5s.")
    Duration detectGrace;

    @Option(names = PostStartGuard.FLAG,
            description = "Wait for ambient's ztunnel even outside the container's entrypoint (by default refused there: "
                    + "in a postStart hook that wait deadlocks the pod). Env: " + PostStartGuard.VARIABLE + ".")
    boolean allowPostStart;

    @Override
    public int run(Context context) throws Exception {
        Env env = new Env(context.env());
        Log log = logging.log(context, env, pilotAgent);
        List<String> withoutEffect = pilotAgent.withoutEffect();
        if (!withoutEffect.isEmpty()) {
            log.debug("pilot-agent's " + String.join(", ", withoutEffect) + ": accepted, no effect here (sidecar-wait "
                    + "logs one wait to stderr, with no log files or scopes)");
        }
        TerminationLog termination = TerminationLogSetting.resolve(terminationLogPath, env);
        WaitPlan plan = settle(env);
        try {
            return new WaitRun(context.clock(), context.env(), context.process().replacer(), log, termination, plan,
                    System::exit).run();
        } catch (PostStartGuard.Refused refused) {
            throw new UsageError(refused.getMessage());
        }
    }

    /** Flags, then the environment, then the defaults: every setting once, every usage error before anything runs. */
    private WaitPlan settle(Env env) {
        MeshOption.Choice mesh = probe.meshOption.resolve(env);
        Duration total = Settings.duration("--timeout", timeout, "--timeoutSeconds", timeoutSeconds, ChronoUnit.SECONDS,
                env, "SIDECAR_WAIT_TIMEOUT", Duration.ofSeconds(60));
        Duration every = Settings.duration("--period", period, "--periodMillis", periodMillis, ChronoUnit.MILLIS,
                env, "SIDECAR_WAIT_PERIOD", DEFAULT_PERIOD);
        Duration grace = detectGrace != null ? detectGrace : env.parse("SIDECAR_WAIT_DETECT_GRACE", Durations::parse);
        OnTimeout whenLate = onTimeout != null ? onTimeout
                : env.parse("SIDECAR_WAIT_ON_TIMEOUT", value -> Choices.parse(OnTimeout.values(), value));
        List<Target.Http> quitGiven = QuitOptions.httpOnly("--quit-url", quitUrls);
        if (quitGiven.isEmpty()) {
            quitGiven = QuitOptions.httpOnly("SIDECAR_WAIT_QUIT_URL", ProbeOptions.targetList(env, "SIDECAR_WAIT_QUIT_URL", Target::parseHttpSetting));
        }
        SuperviseOptions.Settled supervised = supervision.settle(env, !command.isEmpty(), !quitGiven.isEmpty() || quitSidecar);
        List<Target> given = probe.given(env);
        AdminApi admin = probe.admin.settle(env);
        boolean skipOutside = skipOutsideKubernetes || env.isTrue("SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES");
        boolean disabled = env.isTrue("SIDECAR_WAIT_DISABLED");
        WaitPlan plan = new WaitPlan(mesh.preset(), mesh == MeshOption.Choice.AUTO, grace != null ? grace : Duration.ofSeconds(5), given,
                probe.givenStatus(env), admin, probe.requestTimeout(env), total, every,
                whenLate == OnTimeout.CONTINUE, skipOutside, disabled, allowPostStart || env.isTrue(PostStartGuard.VARIABLE),
                supervised.supervised(), supervised.by(), quitGiven, quitSidecar,
                QuitOptions.timeout("--quit-timeout", quitTimeout, env), supervised.onStop(), supervised.onStopBy(),
                List.copyOf(command), probe.tls.settle(env, TlsOptions.urls(given, admin, quitGiven)),
                KubeSettings.settle(given, env, disabled || skipOutside && env.get("KUBERNETES_SERVICE_HOST") == null));
        if (!command.isEmpty() && !spec.commandLine().getParseResult().originalArgs().contains("--")) {
            throw new UsageError("unexpected argument '" + command.get(0)
                    + "'; put the command to run after --, e.g. sidecar-wait wait -- start-app --flag");
        }
        if (!command.isEmpty() && command.get(0).isBlank()) {
            throw new UsageError("the command after -- is empty ('" + command.get(0) + "'); give the program to run, "
                    + "e.g. sidecar-wait wait -- start-app --flag");
        }
        if (command.isEmpty() && plan.quits()) {
            throw new UsageError("--quit-url and --quit-sidecar act when the command ends; give a command after --"
                    + " (or use 'sidecar-wait quit')");
        }
        if (quitSidecar && mesh == MeshOption.Choice.AMBIENT) {
            throw new UsageError("--quit-sidecar has nothing to quit with --mesh ambient: ztunnel runs on the node, "
                    + "not in the pod");
        }
        return plan;
    }
}
