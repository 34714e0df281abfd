package dev.sidecarwait.cli;

import dev.sidecarwait.process.StopSignal;
import picocli.CommandLine.Option;

/** Whether wait stays as the command's parent, and what the command gets for SIGTERM, which needs that parent. */
final class SuperviseOptions {

    static final String STOP_SIGNAL_VARIABLE = "SIDECAR_WAIT_STOP_SIGNAL";

    /** Settled: {@code supervised} null where nobody chose; {@code by} names the choice (flag or variable) for messages. */
    record Settled(Boolean supervised, String by, StopSignal onStop, String onStopBy) {
    }

    @Option(names = "--supervise", negatable = true,
            description = "With a command: stay as its parent after the wait (forward signals, reap orphans as PID 1), "
                    + "instead of handing the process over to it as the native binary does by default; --no-supervise asks "
                    + "for the hand-over, which a quit URL or --stop-signal rules out. Env: SIDECAR_WAIT_SUPERVISE (true/false).")
    Boolean supervise;

    @Option(names = "--stop-signal", paramLabel = "SIGNAL", converter = Converters.StopSignalConverter.class,
            description = "With a command: when the container is told to stop (SIGTERM), send the command SIGNAL instead, "
                    + "the one it stops gracefully on (nginx, php-fpm: QUIT; Apache httpd: WINCH), as Kubernetes' "
                    + "lifecycle.stopSignal would; other signals pass as they are. A name (QUIT, SIGQUIT, RTMIN+3) or a "
                    + "number. Implies --supervise. Env: " + STOP_SIGNAL_VARIABLE + ".")
    StopSignal stopSignal;

    /** Flags, then the environment; every contradiction a usage error. */
    Settled settle(Env env, boolean hasCommand, boolean quits) {
        StopSignal onStop = stopSignal != null ? stopSignal : env.parse(STOP_SIGNAL_VARIABLE, StopSignal::parse);
        String onStopBy = stopSignal != null ? "--stop-signal " + stopSignal.name()
                : STOP_SIGNAL_VARIABLE + "=" + env.get(STOP_SIGNAL_VARIABLE);
        Boolean supervised = supervise != null ? supervise
                : env.get("SIDECAR_WAIT_SUPERVISE") == null ? null : env.isTrue("SIDECAR_WAIT_SUPERVISE");
        String by = supervise != null ? (supervise ? "--supervise" : "--no-supervise")
                : "SIDECAR_WAIT_SUPERVISE=" + env.get("SIDECAR_WAIT_SUPERVISE");
        if (!hasCommand && supervise != null) {
            throw new UsageError(by + " is about the command after --, and there is none");
        }
        if (!hasCommand && stopSignal != null) {
            throw new UsageError(onStopBy + " is about the command after --, and there is none");
        }
        if (Boolean.FALSE.equals(supervised) && quits) {
            throw new UsageError(by + " hands the process over to the command, so nothing can run after it: "
                    + "drop it, or drop --quit-url and --quit-sidecar");
        }
        if (hasCommand && Boolean.FALSE.equals(supervised) && onStop != null) {
            throw new UsageError(by + " hands the process over to the command (exec), and then SIGTERM reaches it as it is: "
                    + onStopBy + " needs sidecar-wait to stay as its parent to turn SIGTERM into " + onStop + "; drop one of them");
        }
        if (supervised == null && onStop != null) {
            return new Settled(true, onStopBy, onStop, onStopBy);
        }
        return new Settled(supervised, by, onStop, onStopBy);
    }
}
