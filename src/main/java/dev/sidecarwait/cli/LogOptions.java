package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import picocli.CommandLine.Option;

/** Logging flags shared by every command. */
final class LogOptions {

    /** What `kubectl logs` shows is the container's main process's stderr (and stdout). */
    static final String PID1_STDERR = "/proc/1/fd/2";
    static final String TO_PID1 = "--log-to-pid1";
    static final String TO_PID1_VARIABLE = "SIDECAR_WAIT_LOG_TO_PID1";

    @Option(names = {"-v", "--verbose"}, description = "Also log every failed attempt.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Log errors only.")
    boolean quiet;

    @Option(names = TO_PID1,
            description = "Also write every log line to the stderr of the container's main process (PID 1), which is what "
                    + "kubectl logs shows: a hook's own output is shown nowhere. Env: SIDECAR_WAIT_LOG_TO_PID1. Default: off.")
    boolean logToPid1;

    @Option(names = "--log-format", paramLabel = "text|json", converter = Converters.LogFormatChoice.class,
            description = "Log lines as text (pilot-agent's layout) or one JSON object a line. Env: SIDECAR_WAIT_LOG_FORMAT. Default: text.")
    Log.Format format;

    Log log(Context context, Env env) {
        return log(context, env, null);
    }

    /** {@code pilotAgent}: pilot-agent's own logging flags, which wait takes too (null for the other commands). */
    Log log(Context context, Env env, PilotAgentFlags pilotAgent) {
        if (verbose && quiet) {
            throw new UsageError("--verbose and --quiet cannot be used together");
        }
        Log.Format istioFormat = pilotAgent == null ? null : pilotAgent.format();
        Log.Level istioLevel = pilotAgent == null ? null : pilotAgent.level();
        if (istioFormat != null && format != null && istioFormat != format) {
            throw new UsageError("--log_as_json=" + (istioFormat == Log.Format.JSON) + " and --log-format "
                    + format.name().toLowerCase(Locale.ROOT) + " disagree; give one of them");
        }
        if (istioLevel != null && (verbose || quiet)) {
            throw new UsageError("--log_output_level and " + (verbose ? "--verbose" : "--quiet")
                    + " cannot be used together; give one of them");
        }
        Log.Format chosen = format != null ? format : istioFormat != null ? istioFormat
                : env.parse("SIDECAR_WAIT_LOG_FORMAT", value -> Choices.parse(Log.Format.values(), value));
        Log.Level level = verbose ? Log.Level.DEBUG : quiet ? Log.Level.ERROR
                : istioLevel != null ? istioLevel : Log.Level.INFO;
        Log.Format layout = chosen == null ? Log.Format.TEXT : chosen;
        if (!(logToPid1 || env.isTrue(TO_PID1_VARIABLE))) {
            return new Log(context.err(), context.clock(), level, layout);
        }
        try {
            return new Log(context.err(), context.clock(), level, layout, pid1Mirror());
        } catch (IOException | SecurityException e) {
            Log log = new Log(context.err(), context.clock(), level, layout);
            log.warn("Cannot mirror log lines to the main process's stderr (" + PID1_STDERR + "): " + e.getMessage());
            return log;
        }
    }

    /** The container's main process's stderr, opened to append; null as PID 1, whose stderr is already that one. */
    static PrintStream pid1Mirror() throws IOException {
        if (ProcessHandle.current().pid() == 1) {
            return null;
        }
        return new PrintStream(new FileOutputStream(PID1_STDERR, true), true, StandardCharsets.UTF_8);
    }
}
