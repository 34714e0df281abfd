package dev.sidecarwait.process;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How a supervised command starts as a direct start would have started it, where the runtime can replace a process
 * (the native binary): the supervisor starts this program once more, and that process sets what the container
 * runtime handed the wrapper (the signals it ignored, the mask its main thread had) and replaces itself with the
 * command, as the hand-over does: the same {@link ExecPlan}, the same pid the supervisor waits for. A JDK-started child
 * would get the supervising thread's mask and the runtime's dispositions instead (docs/native.md). The arguments:
 * {@value #ARGUMENT}, the ignored and the blocked signals as hexadecimal masks, --, the command.
 */
public final class ExecStage {

    /** The first argument that makes main an exec stage: not a command of the CLI, and not one a person types. */
    public static final String ARGUMENT = "--sidecar-wait-exec-stage";

    private ExecStage() {
    }

    /** The stage's arguments for a command that must start with {@code inherited}'s signal state. */
    public static List<String> arguments(Inherited inherited, List<String> command) {
        List<String> arguments = new ArrayList<>(List.of(ARGUMENT, Long.toHexString(inherited.ignoredSignals()),
                Long.toHexString(inherited.blockedSignals()), "--"));
        arguments.addAll(command);
        return arguments;
    }

    /**
     * In the stage's own process: replaces it with the command. Returns only when it could not: the shell's 127 or
     * 126, after one line on {@code err}.
     */
    public static int run(ProcessReplacer replacer, List<String> args, String path, PrintStream err) {
        if (args.size() < 5 || !args.get(3).equals("--") || !isMask(args.get(1)) || !isMask(args.get(2))) {
            err.println("sidecar-wait: " + ARGUMENT + " is sidecar-wait's own, not a command: use sidecar-wait wait -- COMMAND");
            return 2;
        }
        List<String> command = args.subList(4, args.size());
        Inherited atStart = replacer.atStart();
        Inherited wanted = new Inherited(Long.parseUnsignedLong(args.get(1), 16), Long.parseUnsignedLong(args.get(2), 16),
                atStart.descriptors(), atStart.ownExecutable(), null);
        String program = command.get(0);
        CommandLookup.Lookup lookup = CommandLookup.find(program, path);
        CommandLookup.Failure failure;
        if (lookup instanceof CommandLookup.Found found) {
            ExecPlan plan = ExecPlan.of(found, RawArguments.of(command, Path.of("/proc/self/cmdline")), wanted,
                    Inherited.ofThisThread());
            replacer.setDispositions(plan);
            failure = CommandLookup.afterExec(program, replacer.exec(plan));
        } else {
            failure = (CommandLookup.Failure) lookup;
        }
        err.println("sidecar-wait: " + program + ": " + failure.reason());
        return failure.exitCode();
    }

    private static boolean isMask(String hex) {
        return hex.matches("[0-9a-f]{1,16}");
    }
}
