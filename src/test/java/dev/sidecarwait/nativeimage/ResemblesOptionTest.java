package dev.sidecarwait.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import dev.sidecarwait.cli.CommandTree;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The binary's resemblesOption (Target_picocli_CommandLine_Model_CommandSpec) answers as picocli's own, for every
 * command of the tree and arguments of every kind: numbers of each form Long.decode and Double.parseDouble take,
 * option names whole and in part, values that look like neither. A picocli that changes its rule fails here.
 */
class ResemblesOptionTest {

    private static final List<String> ARGUMENTS = List.of("", "-", "x", "--", "-1", "-42", "+7", "0x1F", "-0x1F", "#1F",
            "010", "1.5", "-1.5", "1e3", "-1e-3", "NaN", "-Infinity", "0x1p3", "1d", "2f", "--url", "--ur", "--u", "--url=x",
            "--timeout", "--timeout=5s", "--timeoutSeconds", "-q", "-qv", "-v", "-V", "-h", "--help", "--no-supervise",
            "--supervise", "--mesh", "--me", "--admin-url", "--a", "--xyz", "-x", "-Dfoo=bar", "-Xmx5m",
            "http://127.0.0.1:15021/healthz/ready", "tcp://db:5432", "redis://cache", "2s", "500ms", "istio", "wait", "check", "--period", "--p", "-p", "---", "--=",
            "ax", "a1", "b", "bx", "a");

    @Test
    void answersAsPicocliForEveryCommandAndArgument() throws Exception {
        Method picocli = CommandLine.Model.CommandSpec.class.getDeclaredMethod("resemblesOption", String.class);
        picocli.setAccessible(true);
        List<CommandLine.Model.CommandSpec> specs = new ArrayList<>(List.of(CommandTree.build().getCommandSpec()));
        for (int i = 0; i < specs.size(); i++) {
            specs.addAll(specs.get(i).subcommands().values().stream().map(CommandLine::getCommandSpec).toList());
        }
        specs.add(CommandLine.Model.CommandSpec.create()); // no options at all
        specs.add(namedOptions(9, 1)); // "ax" shares a prefix with 9 of 10 names: picocli's boundary
        specs.add(namedOptions(8, 2));
        int resembling = 0;
        for (CommandLine.Model.CommandSpec spec : specs) {
            for (String arg : ARGUMENTS) {
                boolean expected = (boolean) picocli.invoke(spec, arg);
                assertEquals(expected, OptionLikeness.resembles(spec, arg),
                        spec.qualifiedName() + " '" + arg + "'");
                resembling += expected ? 1 : 0;
            }
            assertEquals(picocli.invoke(spec, (Object) null), OptionLikeness.resembles(spec, null));
        }
        assertEquals(9, specs.size());
        assertTrue(resembling > 20, "the arguments include ones that resemble an option: " + resembling);
    }

    /** A command whose option names are a1, a2, ... and b1, b2, ...: no dashes, so a value's prefix can match some. */
    private static CommandLine.Model.CommandSpec namedOptions(int a, int b) {
        CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create();
        for (int i = 1; i <= a + b; i++) {
            spec.addOption(CommandLine.Model.OptionSpec.builder((i <= a ? "a" : "b") + i).arity("0").type(boolean.class).build());
        }
        return spec;
    }

    @Test
    void substitutesPicocliMethodOfTheSameSignature() throws Exception {
        Class<?> substitution = Target_picocli_CommandLine_Model_CommandSpec.class;
        assertEquals(CommandLine.Model.CommandSpec.class, substitution.getAnnotation(TargetClass.class).value());
        Method ours = substitution.getDeclaredMethod("resemblesOption", String.class);
        Method theirs = CommandLine.Model.CommandSpec.class.getDeclaredMethod("resemblesOption", String.class);
        assertTrue(ours.isAnnotationPresent(Substitute.class));
        assertEquals(theirs.getReturnType(), ours.getReturnType());
        assertEquals(theirs.getModifiers(), ours.getModifiers());
    }
}
