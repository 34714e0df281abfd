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
    void everySnippetOfTheReadmeAndTheDocsParses() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(page -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Invocation> found = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page);
            Matcher yaml = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(text);
            while (yaml.find()) {
                for (Object document : new Yaml().loadAll(yaml.group(1))) {
                    collect(page + " yaml", document, found);
                }
            }
            Matcher shell = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(text);
            while (shell.find()) {
                for (String line : shell.group(1).split("\\n")) {
                    found.addAll(fromShell(page + " sh", line.replaceAll("\\s+#.*$", "")));
                }
            }
        }
        assertTrue(found.size() >= 20, "found only " + found.size() + " command lines in README.md and docs/");
        assertTrue(found.stream().filter(invocation -> invocation.where().startsWith("README.md")).count() >= 6,
                "README.md shows one example per command");
        found.forEach(ExamplesTest::assertParses);
    }

    @Test
    void everyExampleIsLinkedFromTheKubernetesGuide() throws IOException {
        String guide = Files.readString(Path.of("docs/kubernetes.md"));
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            files.forEach(file -> assertTrue(guide.contains("(../examples/kubernetes/" + file.getFileName() + ")"),
                    "docs/kubernetes.md links " + file.getFileName()));
        }
    }

    /** Every relative link in README.md and docs/ points at a file that exists. */
    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsLeadsSomewhere() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(page -> page.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            Matcher link = Pattern.compile("\\]\\(([^)#:]+)(#[^)]*)?\\)").matcher(Files.readString(page));
            while (link.find()) {
                links++;
                Path target = page.toAbsolutePath().getParent().resolve(link.group(1)).normalize();
                if (!Files.exists(target)) {
                    broken.add(page + ": " + link.group(1));
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue(links > 25, links + " links");
    }

    /**
     * A pod has one proxy, so every sidecar-wait in it waits for the same mesh: a --mesh linkerd container in an Istio
     * pod would wait its whole timeout for :4191 and crash-loop.
     */
    @Test
    void everyPodWaitsForOneMeshOnly() throws IOException {
        int pods = 0;
        for (Map<?, ?> pod : podSpecs()) {
            List<Invocation> found = new ArrayList<>();
            collect("pod", pod, found);
            java.util.Set<String> meshes = new java.util.TreeSet<>();
            for (Invocation invocation : found) {
                if (!invocation.args().get(0).equals("install")) {
                    meshes.add(mesh(invocation.args()));
                }
            }
            assertTrue(meshes.size() <= 1, "one mesh per pod, found " + meshes + " in " + found);
            pods++;
        }
        assertTrue(pods >= 8, "looked at " + pods + " pods");
    }

    /** The sidecar is shared: in a Job's pod one container at most tells it to quit, or the first to finish cuts off the rest. */
    @Test
    void aJobsPodHasAtMostOneContainerThatQuitsTheSidecar() throws IOException {
        for (Map<?, ?> pod : podSpecs()) {
            if (!"Never".equals(pod.get("restartPolicy")) && !"OnFailure".equals(pod.get("restartPolicy"))) {
                continue;
            }
            int quitting = 0;
            for (Object container : (List<?>) pod.get("containers")) {
                List<Invocation> found = new ArrayList<>();
                collect("container", container, found);
                if (found.stream().anyMatch(i -> i.args().get(0).equals("quit") || i.args().contains("--quit-sidecar")
                        || i.args().stream().anyMatch(arg -> arg.startsWith("--quit-url")))) {
                    quitting++;
                }
            }
            assertTrue(quitting <= 1, quitting + " containers quit the shared sidecar in " + pod.get("containers"));
        }
    }

    /**
     * Istio's documented override (a container named istio-proxy in the pod, laid over the injected one) replaces
     * the native proxy's preStop with a drain that holds for the app's own port, then asks Envoy; only in a pod
     * pinned to native mode, where istio-proxy is an init container that keeps running.
     */
    @Test
    void theNativeIstioProxyPreStopOverridesTheInjectedHookAndHoldsForTheAppsPort() throws IOException {
        Map<?, ?> pod = null;
        Map<?, ?> metadata = null;
        for (Object document : new Yaml().loadAll(Files.readString(EXAMPLES.resolve("native-istio-proxy-prestop.yaml")))) {
            Map<?, ?> template = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) document).get("spec")).get("template");
            pod = (Map<?, ?>) template.get("spec");
            metadata = (Map<?, ?>) template.get("metadata");
        }
        assertEquals("true", ((Map<?, ?>) metadata.get("annotations")).get("sidecar.istio.io/nativeSidecar"));
        Map<?, ?> proxy = ((List<?>) pod.get("initContainers")).stream().map(c -> (Map<?, ?>) c)
                .filter(c -> "istio-proxy".equals(c.get("name"))).findFirst().orElseThrow();
        assertEquals("auto", proxy.get("image"), "Istio's own image, chosen at injection");
        assertEquals("Always", proxy.get("restartPolicy"), "a native sidecar: lifecycle is allowed on no other init container");
        List<?> preStop = (List<?>) ((Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) proxy.get("lifecycle")).get("preStop")).get("exec")).get("command");
        List<String> args = preStop.subList(1, preStop.size()).stream().map(String::valueOf).toList();
        assertEquals("drain", args.get(0));
        assertTrue(args.contains("--graceful-envoy-after"), args.toString());
        String port = args.get(args.indexOf("--port") + 1);
        List<String> appPorts = ((List<?>) pod.get("containers")).stream()
                .map(c -> ((Map<?, ?>) c).get("ports")).filter(List.class::isInstance)
                .flatMap(ports -> ((List<?>) ports).stream())
                .map(p -> String.valueOf(((Map<?, ?>) p).get("containerPort"))).toList();
        assertTrue(appPorts.contains(port), "drain holds for the app's own port " + appPorts + ", not " + port);
        long timeout = Durations.parse(args.get(args.indexOf("--timeout") + 1)).toSeconds();
        assertTrue(timeout < ((Number) pod.get("terminationGracePeriodSeconds")).longValue(), "the drain ends inside the grace period");
        String binary = String.valueOf(preStop.get(0));
        assertTrue(((List<?>) proxy.get("volumeMounts")).stream().map(m -> String.valueOf(((Map<?, ?>) m).get("mountPath")))
                .anyMatch(path -> binary.startsWith(path + "/")), "the binary is mounted into istio-proxy: " + binary);
    }

    /** --mesh's value (either spelling), else the default, istio. */
    private static String mesh(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--")) {
                break;
            }
            if (args.get(i).equals("--mesh") && i + 1 < args.size()) {
                return args.get(i + 1);
            }
            if (args.get(i).startsWith("--mesh=")) {
                return args.get(i).substring("--mesh=".length());
            }
        }
        return "istio";
    }

    /** Every pod spec (a map with containers) in every example manifest. */
    private static List<Map<?, ?>> podSpecs() throws IOException {
        List<Map<?, ?>> pods = new ArrayList<>();
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object document : new Yaml().loadAll(Files.readString(file))) {
                    podSpecs(document, pods);
                }
            }
        }
        return pods;
    }

    private static void podSpecs(Object node, List<Map<?, ?>> pods) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("containers") instanceof List<?>) {
                pods.add(map);
            }
            map.values().forEach(value -> podSpecs(value, pods));
        } else if (node instanceof List<?> list) {
            list.forEach(item -> podSpecs(item, pods));
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
