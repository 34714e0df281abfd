package dev.sidecarwait.cli;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * picocli gives every command's parser a table of some 40 built-in converters, 18 of them reflective Methods (java.time,
 * java.sql, java.nio.file); in the native image's heap each keeps its conversion code reachable. picocli converts
 * only Strings, Integers and Booleans for us: every other option names its own converter ({@link Converters}), and
 * enums need none. So the tree made while the image is built keeps only those ({@link CommandTree}); on the JVM
 * nothing changes. picocli keeps the table in private fields: if it renames them, this throws while the image is
 * built, and CommandTreeTest fails on the JVM first.
 */
final class BuiltInConverters {

    private BuiltInConverters() {
    }

    /** Every parser in the tree keeps only the converters for String, Integer and Boolean (and int, boolean). */
    static CommandLine keepOnlyTheUsedOnes(CommandLine root) {
        Set<Class<?>> used = Set.of(String.class, Integer.class, int.class, Boolean.class, boolean.class);
        for (CommandLine command : CommandTree.everyCommand(root)) {
            table(command).keySet().retainAll(used);
        }
        return root;
    }

    /** The built-in converter table of one command's parser: CommandLine.interpreter.converterRegistry. */
    @SuppressWarnings("unchecked")
    static Map<Class<?>, Object> table(CommandLine command) {
        try {
            Field interpreter = CommandLine.class.getDeclaredField("interpreter");
            interpreter.setAccessible(true);
            Object parser = interpreter.get(command);
            Field registry = parser.getClass().getDeclaredField("converterRegistry");
            registry.setAccessible(true);
            return (Map<Class<?>, Object>) registry.get(parser);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("picocli " + CommandLine.VERSION + " no longer keeps its built-in converters in "
                    + "CommandLine.interpreter.converterRegistry; update cli/BuiltInConverters.java", e);
        }
    }
}
