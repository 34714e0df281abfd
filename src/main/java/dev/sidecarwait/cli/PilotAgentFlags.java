package dev.sidecarwait.cli;

import dev.sidecarwait.output.Log;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The flags pilot-agent attaches to its root command, which {@code pilot-agent wait} therefore takes too: Istio's
 * logging options (istio/istio pkg/log/options.go, AttachFlags, called from pilot/cmd/pilot-agent/app/cmd.go; the
 * --log_rotate flags are gone since istio/istio#52451, and pilot-agent 1.30.3 refuses them as unknown) and
 * klog's verbosity as --vklog (pkg/log/klog.go, EnableKlogWithCobra, called by pilot-agent's main.go; pkg/cmd/cmd.go's
 * AddFlags copies Go's flag set, which holds it). Both spellings, --flag=v and --flag v, as pflag takes them, so a
 * hook written for pilot-agent runs unchanged. --log_as_json and the default scope's --log_output_level mean here what
 * they mean there; the rest acts on log files and scopes this process does not have, and one debug line says so.
 * Hidden from --help: docs/wait.md lists them.
 */
final class PilotAgentFlags {

    @Option(names = "--log_as_json", arity = "0..1", fallbackValue = "true", converter = Converters.GoBoolean.class,
            hidden = true, description = "pilot-agent's: the log as one JSON object a line (--log-format json).")
    Boolean asJson;

    @Option(names = "--log_output_level", paramLabel = "SCOPE:LEVEL,...", hidden = true,
            description = "pilot-agent's: the default scope's level sets this log's (debug, info, warn, error, fatal, none).")
    String outputLevels;

    @Option(names = "--log_target", paramLabel = "PATH", hidden = true)
    List<String> targets = new ArrayList<>();

    @Option(names = "--log_stacktrace_level", paramLabel = "SCOPE:LEVEL,...", hidden = true)
    String stacktraceLevels;

    @Option(names = "--log_caller", paramLabel = "SCOPES", hidden = true)
    String callers;

    @Option(names = "--vklog", paramLabel = "N", converter = Converters.WholeNumber.class, hidden = true)
    Integer vklog;

    /** The log format --log_as_json asks for, or null when it was not given. */
    Log.Format format() {
        return asJson == null ? null : asJson ? Log.Format.JSON : Log.Format.TEXT;
    }

    /**
     * The level --log_output_level gives the default scope (an entry without a scope, or "default:"), or null when it
     * names none. Istio's levels, as pkg/log/options.go reads them; fatal and none keep errors, as a failed wait is
     * never silent.
     */
    Log.Level level() {
        if (outputLevels == null) {
            return null;
        }
        Log.Level level = null;
        for (String entry : outputLevels.split(",", -1)) {
            String[] parts = entry.trim().split(":", -1);
            if (parts.length > 2 || parts[parts.length - 1].isEmpty()) {
                throw UsageError.invalid("--log_output_level", "'" + outputLevels + "' is not SCOPE:LEVEL[,SCOPE:LEVEL...]");
            }
            Log.Level named = istioLevel(parts[parts.length - 1]);
            if (parts.length == 1 || parts[0].equals("default")) {
                level = named;
            }
        }
        return level;
    }

    private Log.Level istioLevel(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "debug" -> Log.Level.DEBUG;
            case "info" -> Log.Level.INFO;
            case "warn" -> Log.Level.WARN;
            case "error", "fatal", "none" -> Log.Level.ERROR;
            default -> throw UsageError.invalid("--log_output_level",
                    "'" + word + "' is not debug, info, warn, error, fatal or none");
        };
    }

    /** The flags given that have no effect here, for one debug line; empty when none was. */
    List<String> withoutEffect() {
        List<String> given = new ArrayList<>();
        if (!targets.isEmpty()) {
            given.add("--log_target");
        }
        addIfGiven(given, "--log_stacktrace_level", stacktraceLevels);
        addIfGiven(given, "--log_caller", callers);
        addIfGiven(given, "--vklog", vklog);
        if (outputLevels != null && level() == null) {
            given.add("--log_output_level (no level for the default scope)");
        }
        return given;
    }

    private static void addIfGiven(List<String> given, String name, Object value) {
        if (value != null) {
            given.add(name);
        }
    }
}
