package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.FakeClock;
import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.process.ThisProcess;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The native binary holds picocli's finished command tree, made while the image is built (CommandTree.Prebuilt,
 * initialized at build time by native/native-image.properties). Whatever that tree holds is frozen into every
 * binary, so it must hold nothing of a run, and every object in it must be of a class the image initializes at
 * build time. Checked here on the JVM, on the tree the same code builds.
 */
class CommandTreeTest {

    /** What belongs to one run and must never be captured while the image is built. */
    private static final List<Class<?>> RUN_STATE = List.of(Context.class, Clock.class, ThisProcess.class,
            OutputStream.class, InputStream.class, Writer.class, Reader.class, Path.class, File.class, Socket.class,
            Thread.class, ClassLoader.class);

    @Test
    void theTreeHoldsNothingOfARun() throws Exception {
        Map<Object, String> objects = reachable(CommandTree.build());
        assertTrue(objects.size() > 500, "the walk went through the tree: " + objects.size() + " objects");
        List<String> found = new ArrayList<>();
        for (Map.Entry<Object, String> object : objects.entrySet()) {
            for (Class<?> type : RUN_STATE) {
                if (type.isInstance(object.getKey())) {
                    found.add(type.getSimpleName() + " at " + object.getValue());
                }
            }
            if (object.getKey() == System.getenv()) {
                found.add("the environment at " + object.getValue());
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void everyObjectInTheTreeIsOfAClassTheImageInitializesAtBuildTime() throws Exception {
        Properties properties = new Properties();
        try (var in = Files.newInputStream(Path.of("native/native-image.properties"))) {
            properties.load(in);
        }
        String args = properties.getProperty("Args");
        String flag = "--initialize-at-build-time=";
        assertTrue(args.contains(flag), args);
        List<String> buildTime = List.of(args.substring(args.indexOf(flag) + flag.length()).split("\\s")[0].split(","));
        assertEquals(List.of("dev.sidecarwait.cli", "picocli"), buildTime);
        Set<String> runTime = new TreeSet<>();
        for (Object object : reachable(CommandTree.build()).keySet()) {
            String name = object.getClass().getName();
            boolean jdk = name.startsWith("java.") || name.startsWith("[");
            if (!jdk && buildTime.stream().noneMatch(prefix -> name.startsWith(prefix + "."))) {
                runTime.add(name);
            }
        }
        assertEquals(Set.of(), runTime, "objects in the image heap whose classes would be initialized at run time");
    }

    @Test
    void theCommandLinePackagesStaticsAreConstants() throws Exception {
        List<String> mutable = new ArrayList<>();
        for (Class<?> type : cliClasses()) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) || field.isSynthetic()) {
                    continue;
                }
                field.setAccessible(true);
                Object value = field.get(null);
                boolean constant = Modifier.isFinal(modifiers) && (value == null || value instanceof String
                        || value instanceof Number || value instanceof Boolean || value instanceof Duration
                        || value instanceof Pattern || value instanceof Enum<?> || value instanceof CommandLine
                        || value instanceof List<?> list && list.stream().allMatch(item -> item instanceof String
                        || item instanceof Number));
                if (!constant) {
                    mutable.add(type.getName() + "." + field.getName());
                }
            }
        }
        assertEquals(List.of(), mutable, "the package is initialized at build time: its statics would be frozen");
    }

    @Test
    void oneTreeServesRunsThatBringTheirOwnContext() throws Exception {
        CommandLine tree = CommandTree.build();
        ByteArrayOutputStream firstOut = new ByteArrayOutputStream();
        ByteArrayOutputStream secondOut = new ByteArrayOutputStream();
        Context first = new Context(Map.of("SIDECAR_WAIT_URL", "tcp://127.0.0.1:1"), new FakeClock(),
                new PrintStream(firstOut, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        Context second = new Context(Map.of("SIDECAR_WAIT_URL", "tcp://127.0.0.1:2"), new FakeClock(),
                new PrintStream(secondOut, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(1, Cli.run(tree, first, "check", "--admin-url", "none", "--url", "tcp://127.0.0.1:3"));
        assertEquals(1, Cli.run(tree, second, "check", "--admin-url", "none"));
        String firstText = firstOut.toString(StandardCharsets.UTF_8);
        String secondText = secondOut.toString(StandardCharsets.UTF_8);
        assertTrue(firstText.contains("tcp://127.0.0.1:3") && !firstText.contains("127.0.0.1:2"), firstText);
        assertTrue(secondText.contains("tcp://127.0.0.1:2") && !secondText.contains("127.0.0.1:3"),
                "the second run has its own environment and none of the first run's flags: " + secondText);
        assertTrue(secondText.startsWith("2023-11-14T22:13:20.000Z"), "and its own clock: " + secondText);
        assertEquals(0, Cli.run(tree, second, "--version"));
        assertTrue(secondOut.toString(StandardCharsets.UTF_8).matches("(?s).*\nsidecar-wait 0\\.1\\.0 \\(commit .*\\)\n"),
                secondOut.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theTreeEachRuntimeUsesPrintsTheSameHelp() {
        CommandLine whole = CommandTree.build();
        for (String command : List.of("wait", "check", "quit", "drain", "install")) {
            assertEquals(whole.getSubcommands().get(command).getUsageMessage(Ansi.OFF),
                    CommandTree.build(command).getSubcommands().get(command).getUsageMessage(Ansi.OFF), command);
            assertEquals(whole.getSubcommands().get(command).getUsageMessage(Ansi.OFF),
                    CommandTree.forTheImage().getSubcommands().get(command).getUsageMessage(Ansi.OFF), command);
        }
        assertEquals(Set.of("check", "drain", "install", "quit", "wait"), whole.getSubcommands().keySet());
        assertEquals(Set.of("wait"), CommandTree.build("wait").getSubcommands().keySet());
    }

    @Test
    void buildingTheTreeLeavesPicocliToLookAtTheTerminalAtRunTime() throws Exception {
        // A fresh JVM: in this one another test may already have printed help, which asks picocli about the terminal.
        List<String> command = SidecarWaitProcess.jvm(TerminalAfterBuild.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(process, 30));
        assertEquals("tty=null\n", output, "picocli caches isatty() in a static; built at image build time, it would be frozen");
    }

    /** The built-in converters the image's tree keeps: what picocli converts for us without a converter of ours. */
    private static final Set<Class<?>> KEPT = Set.of(String.class, Integer.class, int.class, Boolean.class, boolean.class);

    @Test
    void theImagesTreeKeepsOnlyTheConvertersPicocliUsesForUs() throws Exception {
        Map<Object, String> whole = reachable(CommandTree.build());
        List<Map<Class<?>, Object>> before = converterTables(whole);
        assertTrue(before.size() >= 6 && before.stream().allMatch(table -> table.size() >= 30),
                "picocli still keeps its built-in converters where BuiltInConverters looks: " + before.size() + " tables");
        assertTrue(before.get(0).containsKey(java.time.Duration.class) && before.get(0).containsKey(Path.class),
                "among them the reflective ones for java.time and java.nio.file");

        List<Map<Class<?>, Object>> after = converterTables(reachable(BuiltInConverters.keepOnlyTheUsedOnes(CommandTree.build())));
        assertEquals(before.size(), after.size(), "every parser in the tree, the mixins' included");
        for (Map<Class<?>, Object> table : after) {
            assertEquals(KEPT, table.keySet());
        }
    }

    /** picocli's private table must still be where BuiltInConverters looks, or the image build would fail. */
    @Test
    void picocliStillKeepsItsConvertersWhereThePruningLooks() {
        Map<Class<?>, Object> table = BuiltInConverters.table(CommandTree.build());
        assertTrue(table.keySet().containsAll(KEPT), table.keySet().toString());
    }

    /**
     * Every option and parameter of every command, given a value, parses in the pruned tree to what the whole tree
     * makes of it. The samples must name every option: a new one without a sample fails here.
     */
    @Test
    void thePrunedTreeParsesEveryOptionOfEveryCommandAsTheWholeTreeDoes() {
        Map<String, String> samples = new java.util.HashMap<>(Map.ofEntries(
                Map.entry("--url", "http://localhost:15020/healthz/ready"), Map.entry("--expect-status", "200-299"),
                Map.entry("--request-timeout", "300ms"), Map.entry("--requestTimeoutMillis", "300"),
                Map.entry("--admin-url", "http://localhost:15000"), Map.entry("--mesh", "linkerd"),
                Map.entry("--timeout", "5s"), Map.entry("--timeoutSeconds", "5"), Map.entry("--period", "100ms"), Map.entry("--detect-grace", "2s"),
                Map.entry("--periodMillis", "100"), Map.entry("--on-timeout", "continue"),
                Map.entry("--quit-url", "http://localhost:15020/quitquitquit"), Map.entry("--quit-timeout", "2s"),
                Map.entry("--termination-log", "/dev/termination-log"), Map.entry("--log-format", "json"),
                Map.entry("--output", "json"), Map.entry("--port", "8080"), Map.entry("--exclude-process", "envoy,pilot-agent"),
                Map.entry("--exclude-port", "15021"), Map.entry("--min", "2s"), Map.entry("--source", "both"),
                Map.entry("--stop-signal", "SIGQUIT"), Map.entry("--log_output_level", "default:debug,ads:info"),
                Map.entry("--log_target", "stdout"), Map.entry("--log_stacktrace_level", "default:none"),
                Map.entry("--log_caller", "default"), Map.entry("--vklog", "9"),
                Map.entry("--cacert", "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"),
                Map.entry("--cert", "/etc/tls/tls.crt"), Map.entry("--key", "/etc/tls/tls.key")));
        CommandLine whole = CommandTree.build();
        CommandLine pruned = CommandTree.forTheImage();
        List<String> missing = new ArrayList<>();
        int parsed = 0;
        for (String command : whole.getSubcommands().keySet()) {
            for (CommandLine.Model.OptionSpec option : whole.getSubcommands().get(command).getCommandSpec().options()) {
                String name = option.longestName();
                boolean flag = option.typeInfo().isBoolean();
                if (!flag && !samples.containsKey(name)) {
                    missing.add(command + " " + name);
                    continue;
                }
                String[] args = flag ? new String[] {command, name} : new String[] {command, name, samples.get(name)};
                assertEquals(valueOf(whole, args, name), valueOf(pruned, args, name), String.join(" ", args));
                parsed++;
            }
        }
        assertEquals(List.of(), missing, "options without a sample value in this test");
        assertEquals(List.of("start-app", "--flag"), pruned.parseArgs("wait", "--", "start-app", "--flag").subcommand()
                .matchedPositional(0).getValue());
        assertEquals("/shared", pruned.parseArgs("install", "/shared").subcommand().matchedPositional(0).getValue());
        assertTrue(parsed > 40, "parsed " + parsed + " options");
    }

    /** What {@code args} set option {@code name} to, in a form that compares by value. */
    private static String valueOf(CommandLine tree, String[] args, String name) {
        Object value = tree.parseArgs(args).subcommand().matchedOption(name).getValue();
        return value == null ? "null" : value.getClass().getName() + ":" + (value instanceof dev.sidecarwait.probe.ExpectedStatus
                ? "" : value);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<Class<?>, Object>> converterTables(Map<Object, String> objects) throws Exception {
        List<Map<Class<?>, Object>> tables = new ArrayList<>();
        for (Object object : objects.keySet()) {
            if (object.getClass().getName().equals("picocli.CommandLine$Interpreter")) {
                Field registry = object.getClass().getDeclaredField("converterRegistry");
                registry.setAccessible(true);
                tables.add((Map<Class<?>, Object>) registry.get(object));
            }
        }
        return tables;
    }

    /** Builds the tree in a fresh JVM and prints what picocli has cached about the terminal. */
    static final class TerminalAfterBuild {
        public static void main(String[] args) throws Exception {
            CommandTree.build();
            Field tty = Class.forName("picocli.CommandLine$Help$Ansi").getDeclaredField("tty");
            tty.setAccessible(true);
            System.out.println("tty=" + tty.get(null));
        }
    }

    /** picocli's Ansi.OFF, spelled once. */
    private static final class Ansi {
        static final CommandLine.Help.Ansi OFF = CommandLine.Help.Ansi.OFF;
    }

    /** Every object reachable from {@code root}, with a path to it; JDK objects are looked into only as containers. */
    static Map<Object, String> reachable(Object root) throws IllegalAccessException {
        Map<Object, String> seen = new IdentityHashMap<>();
        List<Object> queue = new ArrayList<>(List.of(root));
        seen.put(root, "root");
        while (!queue.isEmpty()) {
            Object object = queue.remove(queue.size() - 1);
            String path = seen.get(object);
            List<Map.Entry<String, Object>> children = new ArrayList<>();
            Class<?> type = object.getClass();
            if (type.isArray() && !type.getComponentType().isPrimitive()) {
                for (int i = 0; i < Array.getLength(object); i++) {
                    children.add(Map.entry("[" + i + "]", orNull(Array.get(object, i))));
                }
            } else if (object instanceof Collection<?> collection) {
                int i = 0;
                for (Object item : collection) {
                    children.add(Map.entry("[" + i++ + "]", orNull(item)));
                }
            } else if (object instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    children.add(Map.entry("{key}", orNull(entry.getKey())));
                    children.add(Map.entry("{" + entry.getKey() + "}", orNull(entry.getValue())));
                }
            } else if (ours(type)) {
                for (Class<?> c = type; c != null && ours(c); c = c.getSuperclass()) {
                    for (Field field : c.getDeclaredFields()) {
                        if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
                            field.setAccessible(true);
                            children.add(Map.entry(field.getName(), orNull(field.get(object))));
                        }
                    }
                }
            }
            for (Map.Entry<String, Object> child : children) {
                Object value = child.getValue();
                if (value != NULL && !seen.containsKey(value)) {
                    seen.put(value, path + "." + child.getKey());
                    queue.add(value);
                }
            }
        }
        return seen;
    }

    private static boolean ours(Class<?> type) {
        return type.getName().startsWith("picocli.") || type.getName().startsWith("dev.sidecarwait.");
    }

    private static final Object NULL = new Object();

    private static Object orNull(Object value) {
        return value == null ? NULL : value;
    }

    private static List<Class<?>> cliClasses() throws Exception {
        List<Class<?>> classes = new ArrayList<>();
        Path root = Path.of("target/classes/dev/sidecarwait/cli");
        try (var files = Files.list(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = file.getFileName().toString();
                classes.add(Class.forName("dev.sidecarwait.cli." + name.substring(0, name.length() - ".class".length()),
                        false, CommandTreeTest.class.getClassLoader()));
            }
        }
        return classes;
    }
}
