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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sidecar-wait in a restricted pod: every process here runs under another uid with no capability at all (setpriv:
 * uid, gid, fsGroup's supplementary group, empty inheritable and bounding sets, no_new_privs), as a container whose
 * securityContext sets runAsUser, drops ALL and forbids privilege escalation. An init container's user installs the
 * binary into a volume a third user owns (an emptyDir with fsGroup: group-writable, setgid); the app's user runs the
 * installed copy. On the native binary's run (SidecarWaitProcess.NATIVE) the binary is installed and run, handing over
 * itself; on the JVM's, the "binary" is a launcher that runs the JVM build ({@code NativeStandIn}), for the file and
 * who may copy and run it, and the hand-over is ExecWithFfm's, as in {@link HandoverProcessTest}.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class NonRootTest {

    private static final String INSTALLER = "1000";
    private static final String VOLUME_OWNER = "2000";
    private static final String APP = "3000";
    private static final String FS_GROUP = "4000";

    @TempDir
    static Path dir;

    private static Path volume;
    private static Path launcher;
    private static Path java25;
    private static Path harness;
    private static Path runtime;
    private static Path classes;
    private static ServerSocket ready;

    /** A world-readable copy of what the processes need (the build's own files sit under root's 0700 home). */
    @BeforeAll
    static void layOutAPod() throws Exception {
        Path root = Files.createDirectory(dir.resolve("pod"));
        run(List.of("chmod", "755", dir.toString(), root.toString()));
        Path cp = Files.createDirectories(root.resolve("cp"));
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(":")) {
            if (entry.endsWith("/classes") || entry.endsWith("/test-classes") || entry.contains("/picocli-")) {
                Path copy = cp.resolve(Path.of(entry).getFileName());
                run(List.of("cp", "-r", entry, copy.toString()));
                entries.add(copy.toString());
            }
        }
        classes = cp.resolve("classes");
        Path jdk = HandoverProcessTest.Jdk.withForeignFunctions();
        java25 = jdk.resolve("bin/java");
        harness = Files.createDirectory(root.resolve("harness"));
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "-d", harness.toString(), "-cp",
                classes.toString(), "src/test/ffm/ExecWithFfm.java").redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(javac, 120) && javac.exitValue() == 0, "javac ExecWithFfm.java: " + output);
        runtime = root.resolve("runtime-stand-in.pl");
        try (InputStream script = NonRootTest.class.getResourceAsStream("runtime-stand-in.pl")) {
            Files.write(runtime, script.readAllBytes());
        }
        launcher = Files.createDirectory(root.resolve("image")).resolve("sidecar-wait");
        if (SidecarWaitProcess.NATIVE) {
            Files.copy(SidecarWaitProcess.BINARY, launcher);
        } else {
            Files.writeString(launcher, "#!/bin/sh\nSTAND_IN_SELF=\"$0\" exec " + Path.of(System.getProperty("java.home"),
                    "bin", "java") + " -XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp " + String.join(":", entries)
                    + " dev.sidecarwait.NativeStandIn \"$@\"\n");
        }
        run(List.of("chmod", "-R", "a+rX", root.toString()));
        run(List.of("chmod", "755", launcher.toString()));
        // The shared volume: another user's, group-writable for the pod's fsGroup, setgid as the kubelet makes it.
        volume = Files.createDirectory(root.resolve("volume"));
        run(List.of("chown", VOLUME_OWNER + ":" + FS_GROUP, volume.toString()));
        run(List.of("chmod", "2775", volume.toString()));
        ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    }

    @AfterAll
    static void closeTheEndpoint() throws IOException {
        ready.close();
    }

    private record Result(int exit, String out, String err) {
    }

    /** setpriv: the uid, its gid, the fsGroup as supplementary group, no capability, no privilege to gain. */
    private static List<String> as(String uid, String... command) {
        List<String> line = new ArrayList<>(SidecarWaitProcess.ENTRYPOINT);
        line.addAll(List.of("setpriv", "--reuid", uid, "--regid", uid, "--groups", FS_GROUP, "--inh-caps=-all",
                "--bounding-set=-all", "--no-new-privs"));
        line.addAll(List.of(command));
        return line;
    }

    private static Result run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(SidecarWaitProcess.exited(process, 60), "finished: " + command);
        Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        if (command.get(0).equals("chmod") || command.get(0).equals("chown") || command.get(0).equals("cp")) {
            assertEquals(0, result.exit(), command + ": " + result.err());
        }
        return result;
    }

    private static Path installed() throws Exception {
        Path copy = volume.resolve("sidecar-wait");
        if (!Files.exists(copy)) {
            Result install = run(as(INSTALLER, launcher.toString(), "install", volume.toString()));
            assertEquals(0, install.exit(), install.err());
        }
        return copy;
    }

    @Test
    void oneUserInstallsIntoAnotherUsersVolumeAndAThirdRunsTheCopy() throws Exception {
        Path copy = installed();
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)));
        assertEquals(INSTALLER, Files.getAttribute(copy, "unix:uid").toString());
        assertEquals(FS_GROUP, Files.getAttribute(copy, "unix:gid").toString(), "the volume's setgid gives it the fsGroup");

        Result ran = run(as(APP, copy.toString(), "wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(),
                "--", "sh", "-c", "id -u; grep CapEff /proc/self/status; exit 7"));
        assertEquals(7, ran.exit(), ran.err());
        assertEquals(APP + "\nCapEff:\t0000000000000000\n", ran.out());
        assertTrue(ran.err().contains(SidecarWaitProcess.NATIVE ? "its exit code is the process's" : "; exit code 7"),
                ran.err());
    }

    @Test
    void theSupervisingWrapperPassesSignalsOnAsAnotherUser() throws Exception {
        Path copy = installed();
        Path out = Files.createTempFile(dir, "signals", ".txt");
        // The tool's log goes elsewhere: its "Started sh -c ... echo started" line must not pass for the trap being set.
        Path err = Files.createTempFile(dir, "signals-err", ".txt");
        Process wrapper = new ProcessBuilder(as(APP, copy.toString(), "wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(),
                "--supervise", "--", "sh", "-c", "trap 'echo got TERM; exit 42' TERM; echo started; while :; do sleep 0.05; done"))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            SidecarWaitProcess.awaitText(out, "started");
            wrapper.toHandle().destroy(); // SIGTERM, as the kubelet sends it
            assertTrue(SidecarWaitProcess.exited(wrapper, 20), Files.readString(err));
            assertEquals(42, wrapper.exitValue(), Files.readString(err));
            assertEquals("started\ngot TERM\n", Files.readString(out), Files.readString(err));
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }

    @Test
    void theHandOverWorksWithNoCapability() throws Exception {
        Path inherited = Files.createTempFile(dir, "inherited", ".txt");
        run(List.of("chmod", "666", inherited.toString()));
        List<String> wait = List.of("wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(), "--", "sh", "-c",
                "echo $$ $(id -u); grep CapEff /proc/self/status; exit 5");
        List<String> command = new ArrayList<>(List.of("perl", runtime.toString()));
        if (SidecarWaitProcess.NATIVE) {
            command.add(installed().toString());
        } else {
            command.addAll(List.of(java25.toString(), "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                    "-XX:-UsePerfData", "-cp", harness + ":" + classes + ":" + launcherClassPath(), "ExecWithFfm",
                    inherited.toString()));
        }
        command.addAll(wait);
        ProcessBuilder builder = new ProcessBuilder(as(APP, command.toArray(String[]::new)));
        builder.environment().put("INHERITED_FILE", inherited.toString());
        Path out = Files.createTempFile(dir, "handover", ".txt");
        Path err = Files.createTempFile(dir, "handover-err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(SidecarWaitProcess.exited(process, 60));
        assertEquals(5, process.exitValue(), Files.readString(err));
        assertEquals(process.pid() + " " + APP + "\nCapEff:\t0000000000000000\n", Files.readString(out),
                "the command runs in the process's place, as the app's user: " + Files.readString(err));
    }

    @Test
    void drainNamesTheProcessesItCanSeeAndTheUsersOfThoseItCannot() throws Exception {
        Path copy = installed();
        try (ServerSocket others = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            // This JVM's listener is root's: its process cannot be seen by the app's user, only whose it is.
            Result notVisible = run(as(APP, copy.toString(), "drain", "--port", Integer.toString(others.getLocalPort()),
                    "--min", "0s", "--timeout", "1s"));
            assertEquals(1, notVisible.exit(), notVisible.err());
            assertTrue(notVisible.err().contains("still open: port " + others.getLocalPort()
                    + " LISTEN (a process of uid 0 not visible here)"), notVisible.err());
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        Path up = Files.createTempFile(dir, "listener", ".txt");
        Process own = new ProcessBuilder(as(APP, "perl", "-MIO::Socket::INET", "-e", "$s = IO::Socket::INET->new(LocalAddr => "
                + "'127.0.0.1', LocalPort => " + port + ", Listen => 5, ReuseAddr => 1) or die $!; $| = 1; print \"up\\n\"; "
                + "sleep 30")).redirectOutput(up.toFile()).start();
        try {
            SidecarWaitProcess.awaitText(up, "up");
            // The app's user's own listener: its process is named.
            Result visible = run(as(APP, copy.toString(), "drain", "--port", Integer.toString(port), "--min", "0s",
                    "--timeout", "1s"));
            assertEquals(1, visible.exit(), visible.err());
            assertTrue(visible.err().contains("still open: port " + port + " LISTEN (perl pid " + own.pid() + ")"),
                    visible.err());
        } finally {
            SidecarWaitProcess.endTree(own);
        }
    }

    @Test
    void checkAndTheTerminationLogAsAnotherUser() throws Exception {
        Path copy = installed();
        Result check = run(as(APP, copy.toString(), "check", "--url", "tcp://127.0.0.1:" + ready.getLocalPort()));
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("ready      tcp://127.0.0.1:" + ready.getLocalPort() + "  connected"), check.out());

        // The kubelet makes /dev/termination-log writable by the container's user; here, a file the app's user owns.
        Path log = volume.resolve("termination-log");
        Files.writeString(log, "");
        run(List.of("chown", APP, log.toString()));
        Result failed = run(as(APP, copy.toString(), "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "300ms",
                "--termination-log", log.toString()));
        assertEquals(1, failed.exit(), failed.err());
        assertTrue(Files.readString(log).contains("NOT READY before the timeout"), Files.readString(log));

        // One it may not write: said in words, and the wait's own exit code kept.
        Path rootOnly = dir.resolve("root-only-log");
        Files.writeString(rootOnly, "");
        run(List.of("chmod", "644", rootOnly.toString()));
        Result unwritable = run(as(APP, copy.toString(), "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "300ms",
                "--termination-log", rootOnly.toString()));
        assertEquals(1, unwritable.exit(), unwritable.err());
        assertTrue(unwritable.err().contains(rootOnly.toString()), unwritable.err());
        assertEquals("", Files.readString(rootOnly));
    }

    @Test
    void aSecretItMayNotReadAndASocketInADirectoryItMayNotEnterAreNotReadyAndSayWhy() throws Exception {
        Path copy = installed();
        Path secrets = Files.createDirectory(dir.resolve("pod").resolve("secrets"));
        Path secret = Files.writeString(secrets.resolve("db-creds"), "password=s3cret\n");
        run(List.of("chown", "-R", VOLUME_OWNER, secrets.toString()));
        run(List.of("chmod", "755", secrets.toString()));
        run(List.of("chmod", "600", secret.toString()));
        Path agent = Files.createDirectory(dir.resolve("pod").resolve("agent"));
        try (java.nio.channels.ServerSocketChannel listener = java.nio.channels.ServerSocketChannel.open(
                java.net.StandardProtocolFamily.UNIX)) {
            listener.bind(java.net.UnixDomainSocketAddress.of(agent.resolve("agent.sock")));
            run(List.of("chown", VOLUME_OWNER, agent.toString()));
            run(List.of("chmod", "700", agent.toString()));
            Result check = run(as(APP, copy.toString(), "check", "--url", "file://" + secret, "--url",
                    "unix://" + agent.resolve("agent.sock")));
            assertEquals(1, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("NOT READY  file://" + secret + "  a file of 16 bytes, not readable by uid " + APP),
                    check.out());
            assertTrue(check.out().contains("NOT READY  unix://" + agent.resolve("agent.sock") + "  permission denied (uid "
                    + APP + " needs write permission on the socket and search permission on every directory on the way)"),
                    check.out());
        }
    }

    /** picocli's jar, as copied for the launcher. */
    private static String launcherClassPath() throws IOException {
        try (Stream<Path> copies = Files.list(classes.getParent())) {
            return copies.filter(path -> path.getFileName().toString().startsWith("picocli-")).findFirst()
                    .orElseThrow().toString();
        }
    }
}
