package dev.sidecarwait.cli;

import dev.sidecarwait.process.NativeImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Builds the command tree and turns every way a run can end into an exit code. */
public final class Cli {

    public static final int USAGE = 2;
    public static final int INTERNAL_ERROR = 70;

    private Cli() {
    }

    public static CommandLine commandLine(Context context) {
        return commandLine(context, NativeImage.executable());
    }

    /** {@code self}: the native binary that `install` copies; null on the JVM. */
    public static CommandLine commandLine(Context context, Path self) {
        return commandLine(context, self, null);
    }

    /**
     * With {@code only} naming a command, the tree holds just that one: picocli reads every command's
     * annotations when it is added, and a hook that runs at every pod start should not pay for the others.
     */
    private static CommandLine commandLine(Context context, Path self, String only) {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("wait", () -> new WaitCommand(context));
        commands.put("check", () -> new CheckCommand(context));
        commands.put("quit", () -> new QuitCommand(context));
        commands.put("drain", () -> new DrainCommand(context, Path.of("/proc")));
        commands.put("install", () -> new InstallCommand(context, self));
        CommandLine cli = new CommandLine(new SidecarWaitCommand());
        commands.forEach((name, command) -> {
            if (only == null || !commands.containsKey(only) || only.equals(name)) {
                cli.addSubcommand(name, command.get());
            }
        });
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setOut(new java.io.PrintWriter(context.out(), true));
        cli.setErr(new java.io.PrintWriter(context.err(), true));
        cli.setParameterExceptionHandler((ParameterException e, String[] args) -> {
            String command = e.getCommandLine().getCommandName();
            String prefix = command.equals("sidecar-wait") ? "sidecar-wait" : "sidecar-wait " + command;
            context.err().println(prefix + ": " + plain(e.getMessage()) + " (see '" + prefix + " --help')");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((Exception e, CommandLine command, CommandLine.ParseResult parsed) -> {
            String prefix = "sidecar-wait " + command.getCommandName();
            if (e instanceof UsageError) {
                context.err().println(prefix + ": " + e.getMessage());
                return USAGE;
            }
            if (e instanceof InterruptedException) {
                context.err().println(prefix + ": interrupted");
                return 130;
            }
            context.err().println(prefix + ": internal error: " + e);
            return INTERNAL_ERROR;
        });
        return cli;
    }

    public static int run(Context context, String... args) {
        return run(commandLine(context, NativeImage.executable(), args.length > 0 ? args[0] : null), context, args);
    }

    static int run(CommandLine cli, Context context, String... args) {
        if (args.length == 0) {
            cli.usage(context.err());
            return USAGE;
        }
        return cli.execute(args);
    }

    /** picocli's "Invalid value for option '--url' (URL): ..." reads as "invalid value for --url: ...". */
    private static String plain(String message) {
        String text = message.replaceFirst("option '([^']+)'( \\([^)]*\\))?", "$1");
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
