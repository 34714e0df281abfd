package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sidecarwait.Clock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * Manifests that cannot rot: every sidecar-wait command line in examples/kubernetes and in README.md's YAML
 * and shell snippets goes through the real command-line parser, so an example whose flags stop existing
 * fails the build.
 */
class ExamplesTest {

    private static final Path EXAMPLES = Path.of("examples/kubernetes");

    private record Invocation(String where, List<String> args) {
    }

    @Test
    void everyExampleManifestParses() throws IOException {
        List<Invocation> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                List<Invocation> inFile = new ArrayList<>();
                for (Object document : new Yaml().loadAll(Files.readString(file))) {
                    collect(file.getFileName().toString(), document, inFile);
                }
                assertTrue(!inFile.isEmpty(), file + " has no sidecar-wait command line");
                found.addAll(inFile);
            }
        }
        assertTrue(found.size() >= 15, "found only " + found.size() + " command lines: " + found);
        found.forEach(ExamplesTest::assertParses);
    }

    @Test
    void everyReadmeSnippetParses() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<Invocation> found = new ArrayList<>();
        Matcher yaml = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        while (yaml.find()) {
            for (Object document : new Yaml().loadAll(yaml.group(1))) {
                collect("README.md yaml", document, found);
            }
        }
        Matcher shell = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        while (shell.find()) {
            for (String line : shell.group(1).split("\\n")) {
                found.addAll(fromShell("README.md sh", line.replaceAll("\\s+#.*$", "")));
            }
        }
        assertTrue(found.size() >= 14, "found only " + found.size() + " command lines in README.md");
        found.forEach(ExamplesTest::assertParses);
    }

    @Test
    void everyExampleIsLinkedFromTheReadme() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            files.forEach(file -> assertTrue(readme.contains("(examples/kubernetes/" + file.getFileName() + ")"),
                    "README.md links " + file.getFileName()));
        }
    }

    @Test
    void theCheckCatchesAFlagThatDoesNotExist() {
        List<Invocation> found = new ArrayList<>();
        collect("test", new Yaml().load("command: [\"/sidecar-wait/sidecar-wait\", \"wait\", \"--timeout-seconds\", \"5\"]"), found);
        assertEquals(1, found.size());
        try {
            assertParses(found.get(0));
        } catch (AssertionError expected) {
            assertTrue(expected.getMessage().contains("--timeout-seconds"), expected.getMessage());
            return;
        }
        fail("an unknown flag passed the check");
    }

    /** Walks any YAML tree; every container's command + args and every exec hook's command is looked at. */
    @SuppressWarnings("unchecked")
    private static void collect(String where, Object node, List<Invocation> found) {
        if (node instanceof Map<?, ?> map) {
            List<String> commandLine = new ArrayList<>();
            if (map.get("command") instanceof List<?> command) {
                command.forEach(item -> commandLine.add(String.valueOf(item)));
            }
            if (map.get("args") instanceof List<?> args) {
                args.forEach(item -> commandLine.add(String.valueOf(item)));
            }
            found.addAll(fromCommandLine(where, commandLine));
            map.values().forEach(value -> collect(where, value, found));
        } else if (node instanceof List<?> list) {
            list.forEach(item -> collect(where, item, found));
        }
    }

    private static List<Invocation> fromCommandLine(String where, List<String> commandLine) {
        if (commandLine.isEmpty()) {
            return List.of();
        }
        if (isSidecarWait(commandLine.get(0))) {
            return List.of(new Invocation(where, commandLine.subList(1, commandLine.size())));
        }
        if (commandLine.get(0).endsWith("sh") && commandLine.contains("-c")) {
            List<Invocation> found = new ArrayList<>();
            commandLine.stream().skip(commandLine.indexOf("-c") + 1).forEach(script -> found.addAll(fromShell(where, script)));
            return found;
        }
        return List.of();
    }

    /** Each simple command in a script (split at && || ; |) whose program is sidecar-wait. */
    private static List<Invocation> fromShell(String where, String script) {
        List<Invocation> found = new ArrayList<>();
        for (String part : script.split("&&|\\|\\||;|\\|")) {
            List<String> words = List.of(part.trim().split("\\s+"));
            if (!words.isEmpty() && isSidecarWait(words.get(0))) {
                found.add(new Invocation(where, words.subList(1, words.size())));
            }
        }
        return found;
    }

    private static boolean isSidecarWait(String program) {
        return program.equals("sidecar-wait") || program.endsWith("/sidecar-wait") && !program.equals("/sidecar-wait/")
                || program.equals("scripts/sidecar-wait");
    }

    private static void assertParses(Invocation invocation) {
        CommandLine cli = CommandTree.build();
        try {
            CommandLine.ParseResult parsed = cli.parseArgs(invocation.args().toArray(String[]::new));
            assertTrue(parsed.hasSubcommand(), invocation + ": no command given");
        } catch (CommandLine.ParameterException e) {
            throw new AssertionError(invocation.where() + ": 'sidecar-wait " + String.join(" ", invocation.args())
                    + "' does not parse: " + e.getMessage());
        }
    }
}
