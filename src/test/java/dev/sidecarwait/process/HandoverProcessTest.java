package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-over for real: `wait -- command` replaces the process with the command. The native binary does it with
 * GraalVM @CFunctions, which cannot run here; ExecWithFfm (src/test/ffm) makes the same libc calls through a JDK
 * 22+'s foreign function API, on a JDK 25 beside the build's JDK 17, so the plan (which signals, which mask, which
 * descriptors, which file and arguments) is checked against the kernel. Every process here is started by a
 * stand-in for the container runtime that hands on ignored and blocked signals and extra descriptors, and the
 * command's view is compared with the same command started by it directly.
 */
class HandoverProcessTest {

    @TempDir
    static Path dir;

    private static Path java;
    private static Path harness;
    private static Path runtime;
    private static ServerSocket ready;

    @BeforeAll
    static void compileTheHarness() throws Exception {
        Path jdk = Jdk.withForeignFunctions();
        java = jdk.resolve("bin/java");
        harness = Files.createDirectory(dir.resolve("harness"));
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "-d", harness.toString(), "-cp",
                System.getProperty("java.class.path"), "src/test/ffm/ExecWithFfm.java").redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(javac, 120) && javac.exitValue() == 0, "javac ExecWithFfm.java: " + output);
        runtime = dir.resolve("runtime-stand-in.pl");
        try (InputStream script = HandoverProcessTest.class.getResourceAsStream("runtime-stand-in.pl")) {
            Files.write(runtime, script.readAllBytes());
        }
        ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    }

    @AfterAll
    static void closeTheEndpoint() throws IOException {
        ready.close();
    }

    private record Run(int exit, String out, String err, long pid) {

        String lastLogLine() {
            String[] lines = err.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    /** The command started directly by the runtime stand-in. */
    private static Run direct(String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of("perl", runtime.toString()));
        line.addAll(List.of(command));
        return run(new ProcessBuilder(line));
    }

    /** sidecar-wait started by the runtime stand-in, waiting for a ready endpoint, with {@code args} after that. */
    private static Run wrapped(Map<String, String> env, String... args) throws Exception {
        return run(builder(env, args));
    }

    private static ProcessBuilder builder(Map<String, String> env, String... args) throws IOException {
        Path inherited = Files.createTempFile(dir, "inherited", ".txt");
        List<String> line = new ArrayList<>(List.of("perl", runtime.toString(), java.toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                harness + ":" + System.getProperty("java.class.path"), "ExecWithFfm", inherited.toString(),
                "wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort()));
        line.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_"));
        builder.environment().putAll(env);
        builder.environment().put("INHERITED_FILE", inherited.toString());
        return builder;
    }

    private static Run run(ProcessBuilder builder) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(SidecarWaitProcess.exited(process, 60), "finished");
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err), process.pid());
    }

    private static long mask(String status, String field) {
        return Long.parseUnsignedLong(status.replaceAll("(?s).*" + field + ":\\s*([0-9a-f]+).*", "$1"), 16);
    }

    /**
     * The signal masks and the thread count. Signals 32 to 34 are left out: glibc and musl keep them for themselves,
     * refuse to change them, and install handlers of their own on them (which an exec resets), so a runtime that
     * handed them on ignored (as the JVM running these tests does; a container runtime does not) cannot be matched.
     */
    private static String signalLines(String status) {
        long libcOwn = 0b111L << 31;
        return status.lines().filter(line -> line.matches("(SigIgn|SigBlk|SigCgt|Threads):.*"))
                .map(line -> line.startsWith("Sig") ? line.substring(0, 7)
                        + String.format("%016x", mask(line, line.substring(0, 6)) & ~libcOwn) : line)
                .collect(Collectors.joining("\n"));
    }

    @Test
    void theCommandSeesTheSignalsMaskAndDescriptorsItWouldSeeStartedDirectly() throws Exception {
        Run direct = direct("cat", "/proc/self/status");
        Run handedOver = wrapped(Map.of(), "--", "cat", "/proc/self/status");
        assertEquals(0, handedOver.exit(), handedOver.err());
        String expected = signalLines(direct.out());
        long ignored = mask(expected, "SigIgn");
        long blocked = mask(expected, "SigBlk");
        assertTrue((ignored & 1L << 0) != 0 && (ignored & 1L << 11) != 0 && (blocked & 1L << 9) != 0 && (blocked & 1L << 39) != 0,
                "the stand-in hands on HUP and USR2 ignored, USR1 and 40 blocked: " + expected);
        assertEquals(expected, signalLines(handedOver.out()), handedOver.err());

        Run directFds = direct("ls", "/proc/self/fd");
        Run handedOverFds = wrapped(Map.of(), "-v", "--", "ls", "/proc/self/fd");
        assertTrue(directFds.out().lines().toList().containsAll(List.of("3", "7")), directFds.out());
        assertEquals(directFds.out(), handedOverFds.out(), "no descriptor of the JVM's, the probe's or the runtime's: "
                + handedOverFds.err());
        // The native image runtime's own descriptor on its executable is open when main starts, unlike ours, and the
        // container runtime did not hand it over: the plan closes it too (ExecWithFfm opens one the same way).
        String own = handedOverFds.err().replaceAll("(?s).*the runtime's own descriptor on its executable: (\\d+)\n.*", "$1");
        assertTrue(handedOverFds.err().matches("(?s).*descriptors closed: (\\d+, )*" + own + "(, \\d+)*\n.*"),
                "the runtime's own descriptor " + own + " is among those closed: " + handedOverFds.err());
        assertTrue(handedOverFds.err().matches("(?s).*\tdebug\tHanding over: signals ignored as inherited: 1, (.*, )?12(, .*)?; "
                + "back to the default: none; blocked: (.*, )?10, (.*, )?40(, .*)?; descriptors closed: \\d+(, \\d+)*\n.*"),
                handedOverFds.err());
    }

    @Test
    void theCommandRunsUnderTheSamePidAndItsExitCodeIsTheProcesss() throws Exception {
        Run run = wrapped(Map.of(), "--", "sh", "-c", "echo $$; exit 7");
        assertEquals(7, run.exit(), run.err());
        assertEquals(run.pid() + "\n", run.out());
        assertTrue(run.lastLogLine().matches(".*\tinfo\tsidecar-wait: ready after \\d+\\.\\d s; attempts: tcp://127\\.0\\.0\\.1:"
                + "\\d+ 1; handing over: sh now runs in its place \\(exec, pid " + run.pid() + "\\), its exit code is the "
                + "process's"), run.lastLogLine());
    }

    @Test
    void signalsReachTheCommandItselfAndNothingOfOursStaysResident() throws Exception {
        Path out = dir.resolve("signals.txt");
        Process process = builder(Map.of(), "--", "sh", "-c",
                "trap 'echo got TERM; exit 42' TERM; echo started; while true; do sleep 0.05; done")
                .redirectOutput(out.toFile()).redirectError(dir.resolve("signals-err.txt").toFile()).start();
        try {
            SidecarWaitProcess.awaitText(out, "started");
            Path proc = Path.of("/proc", Long.toString(process.pid()));
            assertEquals("sh", Files.readString(proc.resolve("comm")).strip(), "the process is the command now");
            assertTrue(Files.readString(proc.resolve("status")).contains("\nThreads:\t1\n"), "one thread: the shell's");
            new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor();
            assertTrue(SidecarWaitProcess.exited(process, 20));
            assertEquals(42, process.exitValue());
            assertTrue(Files.readString(out).contains("got TERM"));
        } finally {
            SidecarWaitProcess.endTree(process);
        }
    }

    @Test
    void asPid1TheCommandBecomesPid1() throws Exception {
        ProcessBuilder builder = builder(Map.of(), "--", "sh", "-c", "echo pid $$; cat /proc/1/comm");
        List<String> line = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc"));
        line.addAll(builder.command());
        Run run = run(builder.command(line));
        assertEquals(0, run.exit(), run.err());
        assertEquals("pid 1\nsh\n", run.out());
    }

    @Test
    void argumentsArriveByteForByteWhateverTheLocale() throws Exception {
        Run run = wrapped(Map.of("LANG", "C", "LC_ALL", "C"), "--", "sh", "-c", "printf %s \"$1\" | od -An -tx1", "sh",
                "\u00e9\u65e5");
        assertEquals(0, run.exit(), run.err());
        assertEquals("c3 a9 e6 97 a5", run.out().strip(), "é and 日 in UTF-8, though the JVM's argument strings "
                + "under the C locale have lost them");
    }

    @Test
    void disabledAndContinueHandOverTooAndSayWhy() throws Exception {
        Run disabled = wrapped(Map.of("SIDECAR_WAIT_DISABLED", "true"), "--", "sh", "-c", "echo $$");
        assertEquals(disabled.pid() + "\n", disabled.out(), disabled.err());
        assertTrue(disabled.lastLogLine().endsWith("\tinfo\tsidecar-wait: skipped: SIDECAR_WAIT_DISABLED is true; handing "
                + "over: sh now runs in its place (exec, pid " + disabled.pid() + "), its exit code is the process's"),
                disabled.lastLogLine());

        Run continued = run(builder(Map.of(), "--url", "tcp://127.0.0.1:1", "--timeout", "300ms", "--on-timeout",
                "continue", "--", "sh", "-c", "echo $$"));
        assertEquals(continued.pid() + "\n", continued.out(), continued.err());
        assertTrue(continued.lastLogLine().matches(".*\tinfo\tsidecar-wait: NOT READY before the timeout, continuing "
                + "\\(--on-timeout continue\\) after 0\\.\\d s; attempts: .*; not ready: tcp://127\\.0\\.0\\.1:1: connection "
                + "refused; handing over: sh now runs .*"), continued.lastLogLine());
    }

    @Test
    void askedToSuperviseOrWithAQuitUrlItStaysAsTheCommandsParent() throws Exception {
        Run asked = wrapped(Map.of(), "--supervise", "--", "sh", "-c", "echo $PPID");
        assertEquals(0, asked.exit(), asked.err());
        assertEquals(asked.pid() + "\n", asked.out(), "the wrapper is the command's parent");
        assertTrue(asked.lastLogLine().endsWith("sh exited with code 0; exit code 0"), asked.lastLogLine());

        int gone;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            gone = closed.getLocalPort();
        }
        Run quit = wrapped(Map.of(), "--verbose", "--quit-url", "http://127.0.0.1:" + gone + "/quitquitquit", "--", "sh",
                "-c", "echo $PPID");
        assertEquals(quit.pid() + "\n", quit.out(), quit.err());
        assertTrue(quit.err().contains("\tdebug\tSupervising the command: the sidecar is told to quit once it has exited\n"),
                quit.err());
        assertTrue(quit.err().contains("The sidecar is already gone: POST http://127.0.0.1:" + gone), quit.err());
    }

    @Test
    void aSupervisedCommandStartsThroughTheExecStageWithTheSignalsItWouldHaveStartedDirectly() throws Exception {
        Run direct = direct("cat", "/proc/self/status");
        Run supervised = wrapped(Map.of(), "--supervise", "--", "cat", "/proc/self/status");
        assertEquals(0, supervised.exit(), supervised.err());
        assertEquals(signalLines(direct.out()), signalLines(supervised.out()), supervised.err());
    }

    @Test
    void theExecStageRefusesArgumentsItDidNotMake() throws Exception {
        for (List<String> bad : List.of(List.of(ExecStage.ARGUMENT), List.of(ExecStage.ARGUMENT, "zz", "0", "--", "true"),
                List.of(ExecStage.ARGUMENT, "0", "0", "true"))) {
            List<String> line = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                    "-XX:TieredStopAtLevel=1", "-cp", harness + ":" + System.getProperty("java.class.path"), "ExecWithFfm",
                    "-"));
            line.addAll(bad);
            Run run = run(new ProcessBuilder(line));
            assertEquals(2, run.exit(), bad + ": " + run.err());
            assertEquals("sidecar-wait: " + ExecStage.ARGUMENT + " is sidecar-wait's own, not a command: use sidecar-wait "
                    + "wait -- COMMAND\n", run.err(), bad.toString());
        }
    }

    @Test
    void notFoundAndNotExecutableAreDecidedBeforeTheCallAndAFailedExecIsAFailedStart() throws Exception {
        Run missing = wrapped(Map.of(), "--", "no-such-command-for-sidecar-wait");
        assertEquals(127, missing.exit(), missing.err());
        assertTrue(missing.err().contains("\terror\tno-such-command-for-sidecar-wait: command not found\n"), missing.err());
        assertTrue(!missing.err().contains("handing over"), "no hand-over was announced: " + missing.err());

        Path script = Files.writeString(dir.resolve("not-executable.sh"), "echo should not run\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        Run denied = wrapped(Map.of(), "--", script.toString());
        assertEquals(126, denied.exit(), denied.err());
        assertTrue(denied.err().contains(script + ": permission denied"), denied.err());

        Path garbage = Files.writeString(dir.resolve("garbage"), "\0\0\0\0 no shebang, no ELF header");
        Files.setPosixFilePermissions(garbage, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run failed = wrapped(Map.of(), "--", garbage.toString());
        assertEquals(126, failed.exit(), failed.err());
        assertEquals("", failed.out(), "no shell ran it, as none would when the runtime started it directly");
        assertTrue(failed.err().contains("\terror\t" + garbage + ": cannot execute: exec format error\n"), failed.err());
        assertTrue(failed.lastLogLine().matches(".*\terror\tsidecar-wait: ready after .*; " + garbage
                + ": cannot execute: exec format error; exit code 126"), failed.lastLogLine());
    }

    /** A JDK with the foreign function API, beside the one running the build. */
    static final class Jdk {

        private Jdk() {
        }

        static Path withForeignFunctions() throws IOException {
            try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
                return jdks.filter(jdk -> major(jdk) >= 22 && Files.isExecutable(jdk.resolve("bin/javac")))
                        .findFirst().orElseThrow(() -> new AssertionError("no JDK 22+ with javac under /usr/lib/jvm: the "
                                + "real hand-over tests need one (these machines have Temurin 25 there)"));
            }
        }

        private static int major(Path jdk) {
            try {
                String release = Files.readString(jdk.resolve("release"));
                String version = release.replaceAll("(?s).*JAVA_VERSION=\"([0-9]+).*", "$1");
                return Integer.parseInt(version);
            } catch (IOException | NumberFormatException notAJdk) {
                return 0;
            }
        }
    }
}
