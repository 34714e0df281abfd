package dev.sidecarwait;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts the tool as a real process, for exit codes and streams: the native binary when the system property
 * {@value #BINARY_PROPERTY} names it (scripts/test.sh builds it first and runs the process-level tests, tagged
 * {@value #PROCESS_TAG}, on it too: pom.xml, execution native-binary), else a JVM running Main from the test class
 * path. Either starts with every signal at its default disposition, as a container runtime starts an entrypoint (runc
 * resets them): whatever this test run inherited (a shell's background job has SIGINT and SIGQUIT ignored, and
 * HotSpot then leaves an ignored SIGINT or SIGTERM ignored) must not decide what a test sees.
 */
public final class SidecarWaitProcess {

    /**
     * How each test starts an entrypoint: in a session and process group of its own, as runc starts a container's
     * first process (setsid, which execs in place: the pid is the tool's), then coreutils' env with every signal back to
     * its default. The group is what {@link #endTree} ends even after its leader has died.
     */
    public static final List<String> ENTRYPOINT = List.of("setsid", "env", "--default-signal");

    /** The system property naming the native binary to run instead of the JVM. */
    public static final String BINARY_PROPERTY = "sidecarwait.binary";

    /** The JUnit tag of the test classes that start the tool as a process, which run on the binary too. */
    public static final String PROCESS_TAG = "process";

    /** A test about what only the JVM does (its name says so): not run on the binary. */
    public static final String JVM_ONLY_TAG = "jvm-only";

    /** A test about what only the native binary does (its name says so): run on the binary only. */
    public static final String NATIVE_ONLY_TAG = "native-only";

    /** The native binary these tests run, or null for the JVM. */
    public static final Path BINARY = binary();

    /** Whether the process is the native binary, which hands over by default where the JVM supervises. */
    public static final boolean NATIVE = BINARY != null;

    /** The platform the tool runs as, as Kubernetes names it: the binary's own (its ELF header), else this JVM's. */
    public static final String PLATFORM = "linux/" + (NATIVE ? elfMachine(BINARY) : kubernetesArch(System.getProperty("os.arch")));

    /**
     * Whether the binary is for another architecture than this machine's: it then runs under qemu-user (binfmt_misc,
     * scripts/emulation.sh), and what qemu-user cannot show is left out (tags {@value #QEMU_RENUMBERS_REAL_TIME_SIGNALS},
     * {@value #QEMU_RESETS_IGNORED_SIGNALS}).
     */
    public static final boolean EMULATED = !PLATFORM.equals("linux/" + kubernetesArch(System.getProperty("os.arch")));

    /** A test that sends real-time signals across the emulation's edge, which qemu-user renumbers (QemuUserTest). */
    public static final String QEMU_RENUMBERS_REAL_TIME_SIGNALS = "qemu-renumbers-real-time-signals";

    /** A test of signals a parent left ignored, which qemu-user no longer ignores after the guest's exec (QemuUserTest). */
    public static final String QEMU_RESETS_IGNORED_SIGNALS = "qemu-resets-ignored-signals-at-exec";

    /** A test of pages given back with madvise(MADV_PAGEOUT), which qemu-user takes and ignores (QemuUserTest). */
    public static final String QEMU_IGNORES_PAGEOUT = "qemu-ignores-madvise-pageout";

    /** A test about qemu-user itself: run only under emulation (pom.xml's native-binary execution, on the arm64 binary). */
    public static final String EMULATION_ONLY_TAG = "emulation-only";

    private static String kubernetesArch(String javaArch) {
        return switch (javaArch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> javaArch;
        };
    }

    /** e_machine, the two bytes at offset 18 of an ELF header (little-endian on both): 62 x86-64, 183 AArch64. */
    private static String elfMachine(Path binary) {
        try (java.io.InputStream in = Files.newInputStream(binary)) {
            byte[] header = in.readNBytes(20);
            int machine = (header[18] & 0xff) | (header[19] & 0xff) << 8;
            return switch (machine) {
                case 62 -> "amd64";
                case 183 -> "arm64";
                default -> throw new IllegalStateException(binary + " is an ELF file for machine " + machine);
            };
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + binary + ": " + e.getMessage());
        }
    }

    private static Path binary() {
        String given = System.getProperty(BINARY_PROPERTY, "");
        if (given.isBlank()) {
            return null;
        }
        Path binary = Path.of(given).toAbsolutePath();
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(BINARY_PROPERTY + "=" + given + " is not an executable file (bash "
                    + "scripts/native.sh builds target/sidecar-wait)");
        }
        return binary;
    }

    /**
     * The command that starts the tool, without its arguments: on the JVM, from the class path the jar ships (the
     * tool's classes and picocli, nothing of the tests'), on the serial collector as scripts/sidecar-wait starts it.
     */
    public static List<String> launcher() {
        if (NATIVE) {
            return List.of(BINARY.toString());
        }
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-XX:-MaxFDLimit", "-cp", location(Main.class) + File.pathSeparator
                + location(picocli.CommandLine.class), Main.class.getName());
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A JVM running {@code mainClass} from the test class path, whatever the launcher: for tests about the JVM. With
     * -XX:-MaxFDLimit, as scripts/sidecar-wait starts it: HotSpot otherwise raises the soft limit on open files to the
     * hard one, and every command would inherit it.
     */
    public static List<String> jvm(String mainClass) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:-MaxFDLimit", "-cp", System.getProperty("java.class.path"), mainClass);
    }

    private SidecarWaitProcess() {
    }

    public static ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>(ENTRYPOINT);
        command.addAll(launcher());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        return builder;
    }

    /** Waits (30 s at most) until the file a process writes its output to holds {@code text}. */
    public static void awaitText(Path file, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("'" + text + "' never appeared in " + file + ": "
                + (Files.exists(file) ? Files.readString(file) : "(no file)"));
    }

    /**
     * Ends {@code process} and every process below it, however the test ended: each is stopped (SIGSTOP) until the
     * tree no longer grows, as a stopped process cannot fork, then all are killed. A child whose parent died before
     * this (a wrapper killed by a signal mid-test) has left the tree for init; it is still in the process group the
     * tree's leaders head ({@link #ENTRYPOINT}), so those groups are stopped and killed too. A supervised command
     * therefore never outlives a failed test.
     */
    public static void endTree(Process process) throws IOException, InterruptedException {
        ProcessHandle root = process.toHandle();
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        for (int round = 0; round < 100; round++) {
            List<ProcessHandle> found = Stream.concat(Stream.of(root), root.descendants())
                    .filter(ProcessHandle::isAlive).filter(handle -> !tree.contains(handle)).toList();
            if (found.isEmpty()) {
                break;
            }
            signal("-STOP", found.stream().map(handle -> Long.toString(handle.pid())).toList());
            tree.addAll(found);
        }
        // Groups led from the tree, never the test JVM's own: the root's (it may be dead), and each member's it leads.
        List<String> groups = new ArrayList<>(List.of("-" + root.pid()));
        tree.stream().filter(handle -> handle != root && leadsItsGroup(handle.pid())).forEach(h -> groups.add("-" + h.pid()));
        signal("-STOP", groups);
        signal("-KILL", groups);
        tree.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("pid " + process.pid() + " outlived SIGKILL for 30 s");
        }
    }

    /** kill(1) with {@code signal} to each of {@code targets} (pids, or -pgid); some may be gone: kill then says so. */
    private static void signal(String signal, List<String> targets) throws IOException, InterruptedException {
        List<String> kill = new ArrayList<>(List.of("kill", signal, "--"));
        kill.addAll(targets);
        new ProcessBuilder(kill).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    /** Whether the process's group id (the 5th field of /proc/PID/stat, after its parenthesised name) is its pid. */
    private static boolean leadsItsGroup(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2].equals(Long.toString(pid));
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Whether {@code process} exits within {@code seconds}; when it does not, its whole tree is ended ({@link #endTree}). */
    public static boolean exited(Process process, long seconds) throws IOException, InterruptedException {
        if (process.waitFor(seconds, TimeUnit.SECONDS)) {
            return true;
        }
        endTree(process);
        return false;
    }

    /** What a finished run left behind. */
    public record Result(int exit, String out, String err) {
    }

    public static Result run(Map<String, String> env, File stdin, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(args);
        builder.environment().putAll(env);
        Path out = Files.createTempFile("sidecar-wait-out", ".txt");
        Path err = Files.createTempFile("sidecar-wait-err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin);
        }
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            endTree(process);
            throw new AssertionError("sidecar-wait did not finish within 60 s");
        }
        try {
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
