package dev.sidecarwait.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * picocli's model of the command line, read from the commands' annotations. On the JVM it is made at every start,
 * as small as the command asked for; the native binary holds the whole tree, made while the image is built
 * ({@link Prebuilt}), so a start reads no annotation. The tree holds no run: a run binds its context when it
 * executes a command ({@link Subcommand#run}).
 */
public final class CommandTree {

    /**
     * In a native image, at build and at run time, GraalVM sets this property; on a JVM it is unset. This class is
     * initialized while the image is built (native-image.properties), so there the answer is fixed into the image,
     * and the JVM's way of making the tree, annotation reading and all, is left out of it.
     */
    private static final boolean NATIVE_IMAGE = System.getProperty("org.graalvm.nativeimage.imagecode") != null;

    private CommandTree() {
    }

    /** The whole tree. */
    public static CommandLine build() {
        return build(null);
    }

    /** The tree a run parses its arguments with: the image's own in the native binary, else made now. */
    static CommandLine forThisRuntime(String first) {
        return NATIVE_IMAGE ? Prebuilt.ROOT : build(first);
    }

    /**
     * With {@code only} naming a command, the tree holds just that one: picocli reads every command's
     * annotations when it is added, and a hook that runs at every pod start should not pay for the others.
     */
    static CommandLine build(String only) {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("wait", WaitCommand::new);
        commands.put("check", CheckCommand::new);
        commands.put("quit", QuitCommand::new);
        commands.put("drain", DrainCommand::new);
        commands.put("install", InstallCommand::new);
        CommandLine root = new CommandLine(new SidecarWaitCommand());
        commands.forEach((name, command) -> {
            if (only == null || !commands.containsKey(only) || only.equals(name)) {
                root.addSubcommand(name, command.get());
            }
        });
        root.setCaseInsensitiveEnumValuesAllowed(true);
        root.setOverwrittenOptionsAllowed(true); // a flag given twice: the last one counts, as pflag (pilot-agent) has it
        HelpLayout.apply(root);
        // Cli.run executes the command itself; picocli's default strategy would keep this JVM's System.out and err.
        root.setExecutionStrategy(CommandTree::notExecutedByPicocli);
        return root;
    }

    /**
     * The whole tree as the native image holds it: its parsers keep only the converters picocli uses for us
     * ({@link BuiltInConverters}), and its commands and mixins share one negatable-name transformer
     * ({@link NegatableNames}).
     */
    static CommandLine forTheImage() {
        return NegatableNames.shareTheRootsTransformer(BuiltInConverters.keepOnlyTheUsedOnes(build(null)));
    }

    /** The root, its subcommands, theirs, and so on. */
    static List<CommandLine> everyCommand(CommandLine root) {
        List<CommandLine> all = new ArrayList<>(List.of(root));
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).getSubcommands().values());
        }
        return all;
    }

    private static int notExecutedByPicocli(CommandLine.ParseResult parsed) {
        throw new UnsupportedOperationException("commands run through Cli.run, with the run's context");
    }

    /**
     * Initialized while the native image is built (--initialize-at-build-time in native-image.properties): the
     * finished tree is part of the image heap ({@link #forTheImage}). Never touched on the JVM.
     */
    static final class Prebuilt {

        static final CommandLine ROOT = forTheImage();

        private Prebuilt() {
        }
    }
}
