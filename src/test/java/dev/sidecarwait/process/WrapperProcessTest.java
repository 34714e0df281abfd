package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sidecarwait.SidecarWaitProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `sidecar-wait wait -- command`: real wrapper processes, real child processes, real signals. */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class WrapperProcessTest {

    @TempDir
    Path dir;

    private ServerSocket readyProxy;
    private String ready;

    @BeforeEach
    void proxyIsReady() throws IOException {
        readyProxy = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        ready = "tcp://127.0.0.1:" + readyProxy.getLocalPort();
    }

    @AfterEach
    void closeProxy() throws IOException {
        readyProxy.close();
    }

    private SidecarWaitProcess.Result wrap(String... commandAndArgs) throws Exception {
        return SidecarWaitProcess.run(Map.of(), null, args(commandAndArgs));
    }

    private String[] args(String... commandAndArgs) {
        String[] args = new String[4 + commandAndArgs.length];
        System.arraycopy(new String[] {"wait", "--url", ready, "--"}, 0, args, 0, 4);
        System.arraycopy(commandAndArgs, 0, args, 4, commandAndArgs.length);
        return args;
    }

    @Test
    void passesOutputArgumentsEnvironmentAndTheExitCodeThrough() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of("GREETING", "hello"), null, args(
                "sh", "-c", "echo \"$GREETING $1 from $(pwd)\"; echo to-stderr >&2; exit 7", "sh", "--flag"));
        assertEquals(7, run.exit(), run.err());
        assertEquals("hello --flag from " + Path.of("").toAbsolutePath() + "\n", run.out(),
                "only the command writes to stdout");
        assertTrue(run.err().contains("to-stderr"), run.err());
        assertTrue(run.err().contains(SidecarWaitProcess.NATIVE ? "handing over: sh now runs in its place"
                : "sh exited with code 7"), run.err());
    }

    /** The native runtime parses none of them (-H:-ParseRuntimeOptions): a wrapped JVM gets its -D, -X and -XX. */
    @Test
    void javaStyleArgumentsAfterTheDashesReachTheCommandExactly() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, args(
                "sh", "-c", "for a; do echo \"[$a]\"; done", "sh", "-Dfoo=bar", "-Xmx5m", "-XX:+PrintGC", "-R:MaxHeapSize=1m"));
        assertEquals(0, run.exit(), run.err());
        assertEquals("[-Dfoo=bar]\n[-Xmx5m]\n[-XX:+PrintGC]\n[-R:MaxHeapSize=1m]\n", run.out(), run.err());
    }

    @Test
    void passesStdinThrough() throws Exception {
        Path input = dir.resolve("input.txt");
        Files.writeString(input, "line one\nline two\n");
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), input.toFile(), args("cat"));
        assertEquals(0, run.exit(), run.err());
        assertEquals("line one\nline two\n", run.out());
    }

    @Test
    void commandNotFoundIs127AndNotExecutableIs126() throws Exception {
        SidecarWaitProcess.Result missing = wrap("no-such-command-for-sidecar-wait");
        assertEquals(127, missing.exit());
        assertTrue(missing.err().contains("no-such-command-for-sidecar-wait: command not found"), missing.err());

        Path script = dir.resolve("not-executable.sh");
        Files.writeString(script, "echo should not run\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        SidecarWaitProcess.Result denied = wrap(script.toString());
        assertEquals(126, denied.exit());
        assertTrue(denied.err().contains(script + ": permission denied"), denied.err());
        assertEquals("", denied.out());
    }

    /** The JDK's launcher hands a file the kernel refuses (ENOEXEC) to /bin/sh; runc and the hand-over do not. */
    @Test
    void aFileThatIsNotAProgramIs126AndNoShellRunsIt() throws Exception {
        Path garbage = dir.resolve("no-shebang");
        Files.writeString(garbage, "echo a shell ran this\n");
        Files.setPosixFilePermissions(garbage, PosixFilePermissions.fromString("rwxr-xr-x"));
        SidecarWaitProcess.Result run = wrap(garbage.toString());
        assertEquals(126, run.exit(), run.err());
        assertEquals("", run.out(), "no shell ran it");
        assertTrue(run.err().contains("\terror\t" + garbage + ": cannot execute: exec format error\n"), run.err());

        Path script = dir.resolve("with-shebang");
        Files.writeString(script, "#!/bin/sh\necho a script ran\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("a script ran\n", wrap(script.toString()).out());
    }

    @Test
    void anEmptyCommandIsAUsageError() throws Exception {
        SidecarWaitProcess.Result run = wrap("");
        assertEquals(2, run.exit(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("sidecar-wait wait: the command after -- is empty ('')"), run.err());
    }

    @Test
    void aCommandKilledBySignalNExitsWith128PlusN() throws Exception {
        assertEquals(137, wrap("sh", "-c", "kill -KILL $$").exit());
        assertEquals(143, wrap("sh", "-c", "kill -TERM $$").exit());
    }

    @Test
    void signalsSentToTheWrapperReachTheCommandWhichDecidesTheExitCode() throws Exception {
        Path out = dir.resolve("out.txt");
        Process wrapper = SidecarWaitProcess.builder(args("sh", "-c",
                        "trap 'echo got HUP' HUP; trap 'echo got USR2' USR2; trap 'echo got TERM; exit 42' TERM;"
                                + " echo started; while true; do sleep 0.05; done"))
                .redirectOutput(out.toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        try {
            SidecarWaitProcess.awaitText(out, "started");
            signal(wrapper, "HUP");
            SidecarWaitProcess.awaitText(out, "got HUP");
            signal(wrapper, "USR2");
            SidecarWaitProcess.awaitText(out, "got USR2");
            signal(wrapper, "TERM");
            assertTrue(SidecarWaitProcess.exited(wrapper, 20), "the wrapper exits once the command has");
            assertEquals(42, wrapper.exitValue(), Files.readString(dir.resolve("err.txt")));
            assertTrue(Files.readString(out).contains("got TERM"));
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    @Test
    void theWrapperDoesNotExitBeforeTheCommandHas() throws Exception {
        Path out = dir.resolve("out.txt");
        Path pidFile = dir.resolve("pid");
        Process wrapper = SidecarWaitProcess.builder(args("sh", "-c",
                        "echo $$ > " + pidFile + "; trap 'sleep 1; echo cleaned up; exit 0' TERM; echo started;"
                                + " while true; do sleep 0.05; done"))
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            SidecarWaitProcess.awaitText(out, "started");
            long commandPid = Long.parseLong(Files.readString(pidFile).trim());
            signal(wrapper, "TERM");
            assertTrue(SidecarWaitProcess.exited(wrapper, 20));
            assertTrue(Files.readString(out).contains("cleaned up"), "the command finished its cleanup first");
            assertFalse(ProcessHandle.of(commandPid).map(ProcessHandle::isAlive).orElse(false), "no orphan left");
            assertEquals(0, wrapper.exitValue());
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    /** Handed over, the command receives signals itself: --verbose says so instead of listing what would be passed on. */
    @Test
    void verboseSaysWhatBecomesOfSignalsHandedOverOrSupervised() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", ready, "--verbose", "--", "true");
        assertEquals(0, run.exit(), run.err());
        String handedOver = "\tdebug\tUntil the hand-over a signal that would end a process ends the wait (exit 128+N); "
                + "after it, nothing is passed on: the command receives every signal itself\n";
        assertEquals(SidecarWaitProcess.NATIVE, run.err().contains(handedOver), run.err());
        assertEquals(!SidecarWaitProcess.NATIVE, run.err().contains("\tdebug\tSignals passed on to the command: TERM, INT, "),
                run.err());
        SidecarWaitProcess.Result supervised = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", ready, "--verbose",
                "--supervise", "--", "true");
        assertTrue(supervised.err().contains("\tdebug\tSignals passed on to the command: TERM, INT, "), supervised.err());
    }

    @Test
    void aSignalDuringTheWaitEndsItAtOnceAndTheCommandNeverStarts() throws Exception {
        Path marker = dir.resolve("started");
        Path err = dir.resolve("err.txt");
        Path message = Files.writeString(dir.resolve("termination-log"), "");
        Process wrapper = SidecarWaitProcess.builder("wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1h", "--verbose",
                        "--termination-log", message.toString(), "--", "touch", marker.toString())
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            SidecarWaitProcess.awaitText(err, "Waiting for tcp://127.0.0.1:1 to be ready");
            SidecarWaitProcess.awaitText(err, "Not ready yet: tcp://127.0.0.1:1: connection refused");
            signal(wrapper, "INT");
            assertTrue(SidecarWaitProcess.exited(wrapper, 20), "the wait ended");
            assertEquals(128 + 2, wrapper.exitValue());
            assertFalse(Files.exists(marker), "the command was not started");
            String log = Files.readString(err);
            assertTrue(log.contains("Received SIGINT while waiting for tcp://127.0.0.1:1: not starting the command"), log);
            String last = log.strip().substring(log.strip().lastIndexOf('\n') + 1);
            assertTrue(last.matches(".*\terror\tsidecar-wait: NOT READY, stopped by a signal after \\d+\\.\\d s; attempts: "
                    + "tcp://127.0.0.1:1 \\d+; not ready: tcp://127.0.0.1:1: connection refused; SIGINT arrived while "
                    + "waiting; the command was not started; exit code 130"), last);
            assertEquals(last.substring(last.indexOf("sidecar-wait: ")), Files.readString(message));
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    @Test
    void aBadSettingIsAUsageErrorBeforeAnythingStarts() throws Exception {
        Path marker = dir.resolve("started");
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of("SIDECAR_WAIT_DISABLED", "maybe"), null,
                args("touch", marker.toString()));
        assertEquals(2, run.exit(), run.err());
        assertEquals("sidecar-wait wait: invalid value for SIDECAR_WAIT_DISABLED: 'maybe' is not true or false\n", run.err());
        assertFalse(Files.exists(marker));
    }

    @Test
    void onTimeoutTheCommandNeverStartsUnlessToldToContinue() throws Exception {
        Path marker = dir.resolve("started");
        SidecarWaitProcess.Result failed = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", "tcp://127.0.0.1:1",
                "--timeout", "400ms", "--", "touch", marker.toString());
        assertEquals(1, failed.exit());
        assertFalse(Files.exists(marker));

        SidecarWaitProcess.Result continued = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", "tcp://127.0.0.1:1",
                "--timeout", "400ms", "--on-timeout", "continue", "--", "touch", marker.toString());
        assertEquals(0, continued.exit(), continued.err());
        assertTrue(Files.exists(marker));
    }

    @Test
    void theQuitPostArrivesAfterTheCommandEndsAndTheExitCodeIsKept() throws Exception {
        Path marker = dir.resolve("finished");
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer sidecar = quitEndpoint(seen, () -> " after command: " + Files.exists(marker));
        try {
            String quit = "http://localhost:" + sidecar.getAddress().getPort() + "/quitquitquit";
            SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", ready,
                    "--quit-url", quit, "--", "sh", "-c", "sleep 0.2; touch " + marker + "; exit 3");
            assertEquals(3, run.exit(), run.err());
            assertEquals(List.of("POST after command: true"), seen);
            assertTrue(run.err().contains("Asked the sidecar to quit: POST " + quit + " answered HTTP 200 (OK)"), run.err());
        } finally {
            sidecar.stop(0);
        }
    }

    @Test
    void anUnreachableSidecarIsLoggedAndNeverChangesTheExitCode() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", ready,
                "--quit-url", "http://127.0.0.1:" + closed + "/quitquitquit", "--quit-timeout", "1s", "--", "true");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tThe sidecar is already gone: POST http://127.0.0.1:" + closed
                + "/quitquitquit: connection refused"), run.err());
    }

    @Test
    void disabledSkipsTheWaitButNeverTheQuit() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        HttpServer sidecar = quitEndpoint(seen, () -> "");
        try {
            SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of("SIDECAR_WAIT_DISABLED", "true"), null,
                    "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1h",
                    "--quit-url", "http://127.0.0.1:" + sidecar.getAddress().getPort() + "/quitquitquit", "--", "true");
            assertEquals(0, run.exit(), run.err());
            assertEquals(List.of("POST"), seen);
        } finally {
            sidecar.stop(0);
        }
    }

    /** A real loopback server standing for the sidecar's /quitquitquit: records each request's method and note. */
    private static HttpServer quitEndpoint(List<String> seen, Supplier<String> note) throws IOException {
        HttpServer sidecar = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        sidecar.createContext("/quitquitquit", exchange -> {
            seen.add(exchange.getRequestMethod() + note.get());
            byte[] body = "OK".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        sidecar.start();
        return sidecar;
    }

    private static void signal(Process process, String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -s " + name);
    }
}
