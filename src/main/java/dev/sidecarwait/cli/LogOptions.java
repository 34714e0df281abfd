package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Option;

/** Logging flags shared by every command. */
final class LogOptions {

    /** What `kubectl logs` shows is the container's main process's stderr (and stdout). */
    static final String PID1_STDERR = "/proc/1/fd/2";

    @Option(names = {"-v", "--verbose"}, description = "Also log every failed attempt.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Log errors only.")
    boolean quiet;

    @Option(names = "--log-to-pid1",
            description = "Also write every log line to the stderr of the container's main process (PID 1), which is what "
                    + "kubectl logs shows: a hook's own output is shown nowhere. Env: SIDECAR_WAIT_LOG_TO_PID1. Default: off.")
    boolean logToPid1;

    @Option(names = "--log-format", paramLabel = "text|json",
            description = "Log lines as text (pilot-agent's layout) or one JSON object a line. Env: SIDECAR_WAIT_LOG_FORMAT. Default: text.")
    Log.Format format;

    Log log(Context context, Env env) {
        if (verbose && quiet) {
            throw new UsageError("--verbose and --quiet cannot be used together");
        }
        Log.Format chosen = format != null ? format
                : env.parse("SIDECAR_WAIT_LOG_FORMAT", value -> switch (value.toLowerCase(java.util.Locale.ROOT)) {
                    case "text" -> Log.Format.TEXT;
                    case "json" -> Log.Format.JSON;
                    default -> throw new IllegalArgumentException("'" + value + "' is not text or json");
                });
        Log.Level level = verbose ? Log.Level.DEBUG : quiet ? Log.Level.ERROR : Log.Level.INFO;
        Log.Format layout = chosen == null ? Log.Format.TEXT : chosen;
        if (!(logToPid1 || env.isTrue("SIDECAR_WAIT_LOG_TO_PID1")) || ProcessHandle.current().pid() == 1) {
            return new Log(context.err(), context.clock(), level, layout); // as PID 1, our stderr is already that one
        }
        try {
            PrintStream pid1 = new PrintStream(new FileOutputStream(PID1_STDERR, true), true, StandardCharsets.UTF_8);
            return new Log(context.err(), context.clock(), level, layout, pid1);
        } catch (IOException | SecurityException e) {
            Log log = new Log(context.err(), context.clock(), level, layout);
            log.warn("Cannot mirror log lines to the main process's stderr (" + PID1_STDERR + "): " + e.getMessage());
            return log;
        }
    }
}
