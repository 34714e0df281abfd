package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import picocli.CommandLine.Option;

/** Logging flags shared by every command. */
final class LogOptions {

    @Option(names = {"-v", "--verbose"}, description = "Also log every failed attempt.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Log errors only.")
    boolean quiet;

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
        return new Log(context.err(), context.clock(), level, chosen == null ? Log.Format.TEXT : chosen);
    }
}
