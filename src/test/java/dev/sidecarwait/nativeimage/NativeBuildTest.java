package dev.sidecarwait.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.cli.CommandTree;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.spi.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import picocli.CommandLine;

/**
 * What can be checked of the native build without GraalVM (none can be installed here): picocli's processor runs
 * but writes no reflection or proxy configuration (the image holds the finished model, CommandTreeTest), no code
 * reaches a heavy JDK subsystem, and the profile, the arguments file, the Dockerfile and docs/native.md agree.
 */
class NativeBuildTest {

    private static final Path CLASSES = Path.of("target/classes");
    private static final Path GENERATED = CLASSES.resolve("META-INF/native-image/picocli-generated/dev.sidecarwait/sidecar-wait");

    @Test
    void picocliCodegenChecksTheAnnotationsButWritesNoReflectionOrProxyConfiguration() throws Exception {
        // The image holds picocli's finished model (CommandTreeTest), so it reads no annotation and reflects on no
        // class to build one: reflection configuration would only make the image bigger.
        assertTrue(Files.isRegularFile(GENERATED.resolve("resource-config.json")), "the processor ran");
        assertFalse(Files.exists(GENERATED.resolve("reflect-config.json")), "disable.reflect.config");
        assertFalse(Files.exists(GENERATED.resolve("proxy-config.json")), "disable.proxy.config");
        CommandLine root = CommandTree.build();
        assertEquals(Set.of("check", "drain", "install", "quit", "wait"), root.getSubcommands().keySet());
    }

    @Test
    void noCodeReachesAHeavyJdkSubsystem() throws Exception {
        Path picocli = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> edges = jdeps("-verbose:class", "--multi-release", "17", "-cp", picocli.toString(),
                CLASSES.toString(), picocli.toString());
        assertTrue(edges.size() > 500, "jdeps reported the class graph: " + edges.size() + " edges");
        List<String> heavy = List.of("java.net.http.", "javax.net.ssl.", "java.util.logging.", "java.sql.", "java.rmi.",
                "javax.naming.", "java.awt.", "javax.swing.", "javax.script.", "javax.xml.", "java.lang.management.",
                "jdk.jfr.", "javax.management.", "javax.crypto.", "java.security.cert.");
        List<String> urlConnections = List.of("java.net.URLConnection", "java.net.HttpURLConnection", "java.net.JarURLConnection");
        // Ours only: picocli's CommandUserObject refers to Proxy (for @Command interfaces) whatever the command
        // is, so only taking picocli off a path would take dynamic proxies out of the native image (issue 10).
        List<String> dynamicProxies = List.of("java.lang.reflect.Proxy", "java.lang.reflect.InvocationHandler");
        List<String> offending = new ArrayList<>();
        for (String edge : edges) {
            String[] parts = edge.split(" -> ");
            String from = parts[0];
            String to = parts[1];
            boolean ours = from.startsWith("dev.sidecarwait.");
            // The JVM's TLS: the binary replaces TlsClients.forRuntime, their one root, with Mbed TLS's
            // (TlsInTheBinaryTest holds the binary to that), so javax.net.ssl and java.security.cert stay out of it.
            boolean jvmTls = from.startsWith("dev.sidecarwait.tls.Jdk") || from.equals("dev.sidecarwait.tls.KeyDer");
            if (heavy.stream().anyMatch(to::startsWith) && !(jvmTls && (to.startsWith("javax.net.ssl.")
                    || to.startsWith("java.security.cert."))) || urlConnections.contains(to)
                    || ours && (to.equals("java.net.URL") || dynamicProxies.contains(to))) {
                offending.add(edge);
            }
        }
        assertEquals(List.of(), offending);
    }

    /** "A -> B" for every class-level dependency jdeps finds. */
    private static List<String> jdeps(String... args) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), args);
        assertEquals(0, exit, out.toString());
        List<String> edges = new ArrayList<>();
        for (String line : out.toString().split("\\R")) {
            String[] fields = line.trim().split("\\s+");
            // class edges are the indented lines; unindented ones summarise a whole archive
            if (line.startsWith(" ") && fields.length >= 3 && fields[1].equals("->")) {
                edges.add(fields[0] + " -> " + fields[2]);
            }
        }
        return edges;
    }

    /** The image builder's own services, whose providers' catalog entries the image leaves out (native-image.properties). */
    private static final String EXCLUDED_BUILDER_SERVICES = "-H:ServiceLoaderFeatureExcludeServices=" + String.join(",",
            "jdk.graal.compiler.nodes.graphbuilderconf.GeneratedPluginFactory",
            "jdk.graal.compiler.options.OptionDescriptors",
            "com.oracle.svm.core.feature.AutomaticallyRegisteredFeatureServiceRegistration",
            "jdk.graal.compiler.core.match.MatchStatementSet",
            "jdk.graal.compiler.debug.DebugHandlersFactory",
            "jdk.graal.compiler.code.DisassemblerProvider",
            "jdk.graal.compiler.core.common.CompilerProfiler",
            "jdk.graal.compiler.debug.TTYStreamProvider",
            "jdk.graal.compiler.truffle.PartialEvaluatorConfiguration",
            "jdk.graal.compiler.truffle.host.TruffleHostEnvironment$Lookup",
            "jdk.graal.compiler.truffle.phases.inlining.InliningPolicyProvider",
            "jdk.vm.ci.services.JVMCIServiceLocator",
            "com.oracle.svm.hosted.c.libc.HostedLibCBase",
            "com.oracle.svm.hosted.NativeImageClassLoaderPostProcessing",
            "jdk.graal.compiler.hotspot.CompilerConfigurationFactory",
            "jdk.graal.compiler.hotspot.HotSpotBackendFactory",
            "jdk.graal.compiler.truffle.hotspot.TruffleCallBoundaryInstrumentationFactory",
            "org.graalvm.nativeimage.Platform");

    @Test
    void theArgumentsFileIsWiredIntoTheBuildAndTheReadmeListsEveryArgument() throws Exception {
        List<String> args = shippedArguments();
        assertEquals(List.of("-Os", "-march=compatibility", "--no-fallback", "-R:MaxHeapSize=32m", "-R:MaxHeapFree=1",
                "--initialize-at-build-time=dev.sidecarwait.cli,picocli", "--limit-modules=java.base,jdk.unsupported",
                "-H:+UnlockExperimentalVMOptions", "-H:-ParseRuntimeOptions", "-H:CodeInfoIndexGranularity=4096",
                "-H:AlignedHeapChunkSize=65536", "-H:LargeArrayThreshold=32768", "-H:CodeAlignment=1", "-H:-SpawnIsolates",
                "-H:NativeLinkerOption=-Wl,--sort-section=alignment", EXCLUDED_BUILDER_SERVICES,
                "-H:-EnableLoggingFeature", "-H:-UseContainerSupport", "-H:-VMContinuations", "-H:-AllowVMInternalThreads",
                "-H:-InstallExitHandlers", "-H:-UnlockExperimentalVMOptions"), args);

        String readme = Files.readString(Path.of("docs/native.md"));
        for (String arg : args) {
            assertTrue(readme.contains("`" + arg + "`"), "docs/native.md explains " + arg);
        }
        for (String linking : List.of("--static --libc=musl", "--static-nolibc")) {
            assertTrue(readme.contains("`" + linking + "`"), "docs/native.md explains " + linking);
        }
        assertTrue(readme.contains("CI builds\nboth and runs every test that starts the tool as a process against each, the arm64 one under qemu-user."),
                "docs/native.md says what CI does with the binaries");
    }

    /**
     * By default a native executable takes every -D..., -X... and -XX:... argument, anywhere on its command line, as
     * an option for its own runtime and removes it before main: a wrapped `java -Xmx512m -Dprofile=prod -jar app.jar`
     * would start without them. -H:-ParseRuntimeOptions leaves them to main. The binary itself is checked by MainProcessTest on the CI build.
     */
    @Test
    void theShippedArgumentsLeaveRuntimeOptionsOnTheCommandLineToMain() throws Exception {
        List<String> args = shippedArguments();
        assertTrue(args.contains("-H:-ParseRuntimeOptions"), args.toString());
        int unlock = args.indexOf("-H:+UnlockExperimentalVMOptions");
        int lock = args.indexOf("-H:-UnlockExperimentalVMOptions");
        for (String arg : args) {
            if (arg.startsWith("-H:") && !arg.contains("UnlockExperimentalVMOptions")) {
                assertTrue(unlock < args.indexOf(arg) && args.indexOf(arg) < lock, arg + " is between the unlock and the lock");
            }
        }
        assertTrue(args.stream().anyMatch(arg -> arg.startsWith("-R:MaxHeapSize=")), "the heap is a build-time setting");
    }

    /**
     * The image's run-time module graph has only the roots --limit-modules names. A JVM limited to the same list runs the supervising
     * wrapper, which needs sun.misc.Signal (jdk.unsupported), and forwards SIGTERM to its command.
     */
    @Test
    void theWrapperForwardsSignalsWithOnlyTheModulesTheImageMaySee() throws Exception {
        String flag = "--limit-modules=";
        String modules = shippedArguments().stream().filter(arg -> arg.startsWith(flag)).findFirst().orElseThrow()
                .substring(flag.length());
        Path out = Files.createTempFile("limited", ".txt");
        // The tool's log goes elsewhere: its "Started sh -c ... echo started" line must not pass for the trap being set.
        Path err = Files.createTempFile("limited-err", ".txt");
        try (java.net.ServerSocket ready = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            ProcessBuilder builder = dev.sidecarwait.SidecarWaitProcess.builder("wait", "--url", "tcp://127.0.0.1:"
                    + ready.getLocalPort(), "--supervise", "--", "sh", "-c",
                    "trap 'echo got TERM; exit 42' TERM; echo started; while true; do sleep 0.05; done");
            builder.command().add(dev.sidecarwait.SidecarWaitProcess.ENTRYPOINT.size() + 1, "--limit-modules=" + modules);
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try {
                dev.sidecarwait.SidecarWaitProcess.awaitText(out, "started");
                process.toHandle().destroy(); // SIGTERM to the wrapper, which passes it on
                assertTrue(SidecarWaitProcess.exited(process, 20), Files.readString(err));
                assertEquals(42, process.exitValue(), Files.readString(err));
                assertEquals("started\ngot TERM\n", Files.readString(out), Files.readString(err));
            } finally {
                SidecarWaitProcess.endTree(process);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        }
    }

    /**
     * The substitution of CommandLine.copy() (nativeimage/Target_picocli_CommandLine.java) is read by native-image
     * only: it must still name picocli's method exactly, and refusing must stay right: picocli copies a command only
     * for a repeatable subcommand, and none of ours is.
     */
    @Test
    void theSubstitutionOfPicocliCopyMatchesThePinnedPicocliAndIsNeverNeeded() throws Exception {
        Class<?> substitution = Class.forName("dev.sidecarwait.nativeimage.Target_picocli_CommandLine");
        com.oracle.svm.core.annotate.TargetClass target = substitution.getAnnotation(com.oracle.svm.core.annotate.TargetClass.class);
        assertEquals(CommandLine.class, target.value());
        java.lang.reflect.Method ours = substitution.getDeclaredMethod("copy");
        java.lang.reflect.Method picocli = CommandLine.class.getDeclaredMethod("copy");
        assertTrue(ours.isAnnotationPresent(com.oracle.svm.core.annotate.Substitute.class));
        assertEquals(picocli.getReturnType(), ours.getReturnType());
        assertEquals(picocli.getModifiers(), ours.getModifiers());

        List<CommandLine> commands = new ArrayList<>(List.of(CommandTree.build()));
        commands.addAll(commands.get(0).getSubcommands().values());
        for (CommandLine command : commands) {
            assertFalse(command.getCommandSpec().subcommandsRepeatable(), command.getCommandName() + " is repeatable");
        }
        assertEquals(6, commands.size());
    }

    /**
     * nativeimage/DeletedPicocliAnnotations.java deletes picocli's annotations from the image: the ones the command
     * tree carries, on its commands' and mixins' classes, fields and methods, no more and no fewer. One missed would
     * bring its proxy back; one not on the tree would be deleted for nothing.
     */
    @Test
    void theDeletedPicocliAnnotationsAreTheOnesTheCommandTreeCarries() throws Exception {
        Set<Class<?>> carried = new java.util.TreeSet<>(java.util.Comparator.comparing(Class::getName));
        List<CommandLine.Model.CommandSpec> specs = new ArrayList<>(List.of(CommandTree.build().getCommandSpec()));
        for (int i = 0; i < specs.size(); i++) {
            specs.addAll(specs.get(i).subcommands().values().stream().map(CommandLine::getCommandSpec).toList());
            specs.addAll(specs.get(i).mixins().values());
            for (Class<?> type = specs.get(i).userObject().getClass(); type != Object.class; type = type.getSuperclass()) {
                List<java.lang.reflect.AnnotatedElement> elements = new ArrayList<>(List.of(type));
                elements.addAll(List.of(type.getDeclaredFields()));
                elements.addAll(List.of(type.getDeclaredMethods()));
                for (java.lang.reflect.AnnotatedElement element : elements) {
                    for (java.lang.annotation.Annotation annotation : element.getDeclaredAnnotations()) {
                        if (annotation.annotationType().getName().startsWith("picocli.")) {
                            carried.add(annotation.annotationType());
                        }
                    }
                }
            }
        }
        Set<Class<?>> deleted = new java.util.TreeSet<>(java.util.Comparator.comparing(Class::getName));
        for (Class<?> target : Class.forName("dev.sidecarwait.nativeimage.DeletedPicocliAnnotations").getDeclaredClasses()) {
            assertTrue(target.isAnnotationPresent(com.oracle.svm.core.annotate.Delete.class), target.getName());
            deleted.add(target.getAnnotation(com.oracle.svm.core.annotate.TargetClass.class).value());
        }
        assertTrue(carried.contains(CommandLine.Option.class), carried.toString());
        assertEquals(carried, deleted);
    }

    /**
     * nativeimage/DeletedUnreadAnnotations.java deletes annotation types nothing in the image reads: each must be an
     * annotation type kept at run time (a proxy class of its own in the image), or it is deleted for nothing.
     */
    @Test
    void theDeletedUnreadAnnotationsAreAnnotationTypesKeptAtRunTime() throws Exception {
        Class<?>[] targets = Class.forName("dev.sidecarwait.nativeimage.DeletedUnreadAnnotations").getDeclaredClasses();
        assertEquals(8, targets.length);
        for (Class<?> target : targets) {
            assertTrue(target.isAnnotationPresent(com.oracle.svm.core.annotate.Delete.class), target.getName());
            Class<?> deleted = Class.forName(target.getAnnotation(com.oracle.svm.core.annotate.TargetClass.class).className());
            assertTrue(deleted.isAnnotation(), deleted.getName());
            assertEquals(java.lang.annotation.RetentionPolicy.RUNTIME,
                    deleted.getAnnotation(java.lang.annotation.Retention.class).value(), deleted.getName());
        }
    }

    /** The native-image arguments as shipped in the jar (native/native-image.properties, copied by Maven). */
    private static List<String> shippedArguments() throws Exception {
        Path shipped = CLASSES.resolve("META-INF/native-image/dev.sidecarwait/sidecar-wait/native-image.properties");
        assertTrue(Files.exists(shipped), "native/native-image.properties is copied where native-image looks");
        Properties properties = new Properties();
        try (var in = Files.newInputStream(shipped)) {
            properties.load(in);
        }
        return List.of(properties.getProperty("Args").trim().split("\\s+"));
    }

    @Test
    void theNativeProfileAndTheImageAreWhatTheDocsSay() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        Element nativeProfile = profile(pom, "native");
        Element plugin = (Element) nativeProfile.getElementsByTagName("plugin").item(0);
        assertEquals("native-maven-plugin", text(plugin, "artifactId"));
        assertTrue(text(plugin, "version").startsWith("1.1."), "native-maven-plugin 1.1.x");
        assertEquals("sidecar-wait", text(plugin, "imageName"));
        assertEquals("${native.linking}", text(plugin, "buildArg"));
        assertEquals("compile-no-fork", text(plugin, "goal"));
        assertEquals("--static-nolibc", text((Element) pom.getElementsByTagName("properties").item(0), "native.linking"));
        Element x86 = profile(pom, "native-x86-64");
        assertEquals("amd64", text(x86, "arch"));
        assertEquals("--static --libc=musl", text(x86, "native.linking"));
        String graalvm = text((Element) pom.getElementsByTagName("properties").item(0), "graalvm.sdk.version");
        assertTrue(Files.readString(Path.of("native/builder/pom.xml")).contains("<graalvm.version>" + graalvm
                + "</graalvm.version>"), "the CI build's builder is the GraalVM the code compiles against: " + graalvm);

        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("\nFROM scratch\n") && !dockerfile.contains("RUN "),
                "the image is assembled from CI's binaries, nothing built in it: " + dockerfile);
        assertTrue(dockerfile.contains("ENTRYPOINT [\"/sidecar-wait\"]"), dockerfile);
        String docs = Files.readString(Path.of("docs/native.md"));
        assertTrue(docs.contains("mvn -Pnative package") && docs.contains("bash scripts/image.sh"), docs);
    }

    /**
     * The CI build takes its options from the file the release reads (native/native-image.properties), translated by
     * native/builder/ImageOptions.java as GraalVM's driver would: every argument of the file has a translation (an
     * option it cannot translate stops the build, naming it), and the translations are the driver's.
     */
    @Test
    void theCiBuildTranslatesEveryArgumentOfTheReleasesOptions() throws Exception {
        List<String> lines = imageOptions(Path.of("native/native-image.properties"));
        assertEquals(shippedArguments().size() + 2, lines.size(), "one line per argument and the two of the linking: " + lines);
        assertTrue(lines.containsAll(List.of("image -H:Optimize=s", "image -H:MicroArchitecture=compatibility",
                "image -H:FallbackThreshold=0", "image -R:MaxHeapSize=32m",
                "image -H:ClassInitialization=dev.sidecarwait.cli:build_time,picocli:build_time",
                "jvm -Dsvm.modulesupport.limitedModules=java.base,jdk.unsupported", "image -H:-ParseRuntimeOptions",
                "image -H:+StaticExecutable", "image -H:UseLibC=musl")), lines.toString());

        Path unknown = Files.createTempFile("native-image", ".properties");
        try {
            Files.writeString(unknown, "Args = -Os --enable-http\n");
            Process refused = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "native/builder/ImageOptions.java", unknown.toString()).redirectErrorStream(true).start();
            String said = new String(refused.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(2, refused.waitFor(), said);
            assertTrue(said.contains("no translation for the native-image option '--enable-http'"), said);
        } finally {
            Files.deleteIfExists(unknown);
        }
    }

    /**
     * Every method substituted in nativeimage/, and every builder method a stand-in in native/builder replaces or
     * relies on (its "held:" lines), is held to the code it was written against (native/builder/substituted.txt,
     * checked by scripts/native.sh before each build), but picocli's, which theSubstitutionOfPicocli... checks against
     * the pinned picocli, and our own class's.
     */
    @Test
    void everySubstitutedMethodIsHeldToTheCodeItWasWrittenAgainst() throws Exception {
        List<String> held = Files.readAllLines(Path.of("native/builder/substituted.txt")).stream()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("\\s+")[0].replace('/', '.') + "." + line.split("\\s+")[1]).toList();
        List<String> substituted = new ArrayList<>();
        try (var files = Files.list(Path.of("src/main/java/dev/sidecarwait/nativeimage"))) {
            for (Path file : files.toList()) {
                String source = Files.readString(file);
                java.util.regex.Matcher target = java.util.regex.Pattern.compile("@TargetClass\\(className = \"([^\"]+)\"\\)")
                        .matcher(source);
                if (!target.find()) {
                    continue;
                }
                java.util.regex.Matcher method = java.util.regex.Pattern.compile("@Substitute\\s+[^(]*\\s(\\w+)\\(").matcher(source);
                while (method.find()) {
                    substituted.add(target.group(1) + "." + method.group(1));
                }
            }
        }
        // picocli's is checked against the pinned picocli; ours (TlsClients) is this repository's own code, and the
        // builder refuses a substitution whose method is gone
        substituted.removeIf(name -> name.startsWith("picocli.") || name.startsWith("dev.sidecarwait."));
        // a stand-in for a builder class (native/builder, put on the builder's module by native.sh) replaces it whole:
        // every method the builder calls on it is held (the builder's own private ones may be held too)
        List<String> standIns = new ArrayList<>();
        try (var files = Files.list(Path.of("native/builder"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                java.util.regex.Matcher reliedOn = java.util.regex.Pattern.compile("(?m)^ \\* held: ([\\w.$]+) ").matcher(source);
                while (reliedOn.find()) {
                    standIns.add(reliedOn.group(1));
                }
                java.util.regex.Matcher builderPackage = java.util.regex.Pattern.compile("(?m)^package (com\\.oracle\\.svm[\\w.]*);")
                        .matcher(source);
                if (!builderPackage.find() || !source.contains("Stand-in for the builder's class of the same name")) {
                    continue;
                }
                String type = builderPackage.group(1) + "." + file.getFileName().toString().replace(".java", "");
                java.util.regex.Matcher method = java.util.regex.Pattern.compile("(?m)^    (?!private )(?:public )?[\\w<>, ]+ (\\w+)\\([^)]*\\) \\{")
                        .matcher(source);
                while (method.find()) {
                    standIns.add(type + "." + method.group(1));
                }
            }
        }
        assertFalse(substituted.isEmpty());
        // the layouter's one, the partition's nine, the reporter's three, the symbol encoder's two and the four it relies on
        assertTrue(standIns.size() >= 19, standIns.toString());
        assertTrue(held.containsAll(standIns), standIns.toString());
        List<String> heldOfStandIns = held.stream()
                .filter(name -> standIns.stream().anyMatch(s -> s.startsWith(name.substring(0, name.lastIndexOf('.') + 1))))
                .toList();
        List<String> heldOfSubstitutions = new ArrayList<>(held);
        heldOfSubstitutions.removeAll(heldOfStandIns);
        assertEquals(substituted.stream().sorted().toList(), heldOfSubstitutions.stream().sorted().toList());
    }

    private static List<String> imageOptions(Path properties) throws Exception {
        Process translate = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "native/builder/ImageOptions.java", properties.toString(), "--static", "--libc=musl").start();
        String out = new String(translate.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String err = new String(translate.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, translate.waitFor(), err);
        return out.lines().toList();
    }

    private static Element profile(Document pom, String id) {
        NodeList profiles = pom.getElementsByTagName("profile");
        for (int i = 0; i < profiles.getLength(); i++) {
            Element profile = (Element) profiles.item(i);
            if (id.equals(text(profile, "id"))) {
                return profile;
            }
        }
        throw new AssertionError("no profile " + id + " in pom.xml");
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        assertTrue(nodes.getLength() > 0, "<" + tag + "> in " + parent.getTagName());
        return nodes.item(0).getTextContent().trim();
    }
}
