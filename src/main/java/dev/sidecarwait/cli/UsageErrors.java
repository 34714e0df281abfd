package dev.sidecarwait.cli;

import dev.sidecarwait.output.TerminationLog;
import dev.sidecarwait.probe.Target;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * A usage error is reported wherever a failure is: one line on stderr and, for the commands that have them, the
 * termination log (a failed postStart hook shows nothing else in kubectl describe) and the PID-1 mirror
 * (--log-to-pid1), whether picocli found the error while parsing or the command while settling its settings. Those
 * two are settled here from the raw arguments and the environment: a command line that did not parse has no parsed
 * values to trust.
 */
final class UsageErrors {

    private UsageErrors() {
    }

    /** Reports {@code message} (the line's {@code hint} goes to stderr only) and returns the usage exit code. */
    static int report(Context context, CommandLine command, String message, String hint, String[] args) {
        // picocli quotes raw arguments in some of its messages ("unexpected argument '...'"): never a URL's secret
        String line = Target.redacted(Cli.prefix(command) + ": " + message);
        context.err().println(line + hint);
        context.err().flush();
        List<String> ours = ours(args);
        Env env = new Env(context.env());
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        if (spec.findOption(LogOptions.TO_PID1) != null && (ours.contains(LogOptions.TO_PID1) || isTrue(env, LogOptions.TO_PID1_VARIABLE))) {
            try (PrintStream mirror = LogOptions.pid1Mirror()) {
                if (mirror != null) {
                    mirror.println(line + hint);
                }
            } catch (java.io.IOException | SecurityException unavailable) {
                // the line is on stderr already; a mirror that cannot be opened adds nothing
            }
        }
        if (spec.findOption(TerminationLogSetting.FLAG) != null) {
            TerminationLog termination;
            try {
                termination = TerminationLogSetting.resolve(valueOf(ours, TerminationLogSetting.FLAG), env);
            } catch (UsageError unusable) { // the error being reported may be this very setting's
                termination = TerminationLogSetting.resolve(null, new Env(Map.of()));
            }
            termination.write(line + "; exit code " + Cli.USAGE, warning -> context.err().println(Cli.prefix(command) + ": " + warning));
        }
        return Cli.USAGE;
    }

    /** The arguments that are sidecar-wait's own: those before "--". */
    private static List<String> ours(String[] args) {
        List<String> all = List.of(args);
        int end = all.indexOf("--");
        return end < 0 ? all : all.subList(0, end);
    }

    /** "--flag value" or "--flag=value"; null when not given. */
    private static String valueOf(List<String> args, String flag) {
        String value = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals(flag) && i + 1 < args.size()) {
                value = args.get(i + 1);
            } else if (args.get(i).startsWith(flag + "=")) {
                value = args.get(i).substring(flag.length() + 1);
            }
        }
        return value;
    }

    private static boolean isTrue(Env env, String variable) {
        try {
            return env.isTrue(variable);
        } catch (UsageError notABoolean) {
            return false;
        }
    }
}
