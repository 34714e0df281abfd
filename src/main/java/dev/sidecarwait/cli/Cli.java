package dev.sidecarwait.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Parses a command line against the command tree, runs the command chosen, and turns every ending into an exit code. */
public final class Cli {

    public static final int USAGE = 2;
    public static final int INTERNAL_ERROR = 70;

    private Cli() {
    }

    public static int run(Context context, String... args) {
        return run(CommandTree.forThisRuntime(args.length > 0 ? args[0] : null), context, args);
    }

    /** Runs {@code args} with {@code tree}; the context reaches the command only here, at run time. */
    static int run(CommandLine tree, Context context, String... args) {
        if (args.length == 0) {
            tree.usage(context.err());
            return USAGE;
        }
        CommandLine chosen;
        try {
            List<CommandLine> parsed = tree.parseArgs(args).asCommandLineList();
            chosen = parsed.get(parsed.size() - 1);
        } catch (ParameterException e) {
            return UsageErrors.report(context, e.getCommandLine(), plain(e.getMessage()),
                    " (see '" + prefix(e.getCommandLine()) + " --help')", args);
        }
        if (chosen.isUsageHelpRequested()) {
            chosen.usage(context.out());
            return 0;
        }
        if (chosen.isVersionHelpRequested()) {
            chosen.printVersionHelp(context.out());
            return 0;
        }
        if (!(chosen.getCommand() instanceof Subcommand command)) {
            tree.usage(context.err());
            return USAGE;
        }
        String prefix = prefix(chosen);
        try {
            return command.run(context);
        } catch (UsageError e) {
            return UsageErrors.report(context, chosen, e.getMessage(), "", args);
        } catch (InterruptedException e) {
            context.err().println(prefix + ": interrupted");
            return 130;
        } catch (Exception e) {
            context.err().println(prefix + ": internal error: " + e);
            return INTERNAL_ERROR;
        }
    }

    static String prefix(CommandLine command) {
        String name = command.getCommandName();
        return name.equals("sidecar-wait") ? "sidecar-wait" : "sidecar-wait " + name;
    }

    /** picocli's "Invalid value for option '--url' (URL): ..." reads as "invalid value for --url: ...". */
    private static String plain(String message) {
        String text = message.replaceFirst("option '([^']+)'( \\([^)]*\\))?", "$1");
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
