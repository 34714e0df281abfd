package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every signal a container may be stopped with (Kubernetes 1.33's lifecycle.stopSignal) reaches a supervised command:
 * a real wrapper, a real bash that traps each one by number, each sent to the wrapper in turn. Numbers come from bash's
 * kill -l. What a runtime cannot take is named here, as in docs/wrapper.md: HotSpot reserves QUIT and has no name for
 * the real-time signals; musl keeps RTMIN.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class StopSignalsTest {

    @TempDir
    Path dir;

    private static List<String> passedOnByThisRuntime() {
        List<String> names = new ArrayList<>(ForwardedSignals.NAMES);
        if (SidecarWaitProcess.NATIVE) {
            names.remove("RTMIN");
        } else {
            names.remove("QUIT");
            names.removeAll(SignalNumbers.realTime());
        }
        return names;
    }

    private static int number(String name) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", "kill -l \"$0\"", name).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, bash.waitFor(), "kill -l " + name);
        return Integer.parseInt(out);
    }

    private static void send(Process process, int number) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + number, Long.toString(process.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + number);
    }

    @Test
    void eachStopSignalReachesTheSupervisedCommand() throws Exception {
        List<String> names = new ArrayList<>(passedOnByThisRuntime());
        names.removeAll(SignalNumbers.realTime());
        Path err = passOn(names);
        assertTrue(Files.readString(err).contains("Signals passed on to the command: "
                + String.join(", ", passedOnByThisRuntime())), Files.readString(err));
    }

    /**
     * The real-time ones, which only the native binary can take (HotSpot has no name for them). Not under qemu-user,
     * which renumbers a real-time signal between the host and the guest (QemuUserTest): the wrapper would pass on the
     * signal it was told of, which is not the one sent.
     */
    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    @Tag(SidecarWaitProcess.QEMU_RENUMBERS_REAL_TIME_SIGNALS)
    void eachRealTimeStopSignalReachesTheSupervisedCommandNotUnderQemuUser() throws Exception {
        List<String> names = new ArrayList<>(passedOnByThisRuntime());
        names.retainAll(SignalNumbers.realTime());
        assertEquals(30, names.size(), "RTMIN+1 to RTMAX: " + names);
        passOn(names);
    }

    /** A supervised bash that traps each of {@code names} by number, sent each in turn, then TERM; returns the log. */
    private Path passOn(List<String> names) throws Exception {
        List<Integer> numbers = new ArrayList<>();
        for (String name : names) {
            numbers.add(number(name));
        }
        String traps = numbers.stream().map(n -> "trap 'echo got " + n + "' " + n + ";").collect(Collectors.joining(" "));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        try (ServerSocket ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Process wrapper = SidecarWaitProcess.builder("wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(),
                            "--supervise", "--verbose", "--", "bash", "-c",
                            traps + " trap 'echo got TERM; exit 42' TERM; echo started; while :; do sleep 0.05; done")
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try {
                SidecarWaitProcess.awaitText(out, "started");
                for (int i = 0; i < names.size(); i++) {
                    if (!names.get(i).equals("TERM")) {
                        send(wrapper, numbers.get(i));
                        SidecarWaitProcess.awaitText(out, "got " + numbers.get(i) + "\n");
                    }
                }
                send(wrapper, 15);
                assertTrue(SidecarWaitProcess.exited(wrapper, 20), "the command ends on TERM, then the wrapper");
                assertEquals(42, wrapper.exitValue(), Files.readString(err));
                return err;
            } finally {
                SidecarWaitProcess.endTree(wrapper);
            }
        }
    }

    @Test
    void whileWaitingAResizedTerminalOrJobControlGoesByAndUsr1EndsTheWait() throws Exception {
        Path err = dir.resolve("err.txt");
        Path marker = dir.resolve("started");
        Process wrapper = SidecarWaitProcess.builder("wait", "--url", "tcp://127.0.0.1:1", "--timeout", "1h", "--verbose",
                        "--", "touch", marker.toString())
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            SidecarWaitProcess.awaitText(err, "Not ready yet: tcp://127.0.0.1:1");
            for (String name : List.of("WINCH", "URG", "CONT", "TSTP", "TTIN", "TTOU")) {
                send(wrapper, number(name));
                SidecarWaitProcess.awaitText(err, "Received SIG" + name + " while waiting: it would not end a process");
            }
            assertTrue(wrapper.isAlive(), "still waiting");
            send(wrapper, number("USR1"));
            assertTrue(SidecarWaitProcess.exited(wrapper, 20), "USR1 ends the wait, as it would end a process");
            assertEquals(128 + 10, wrapper.exitValue(), Files.readString(err));
            assertFalse(Files.exists(marker), "the command was not started");
        } finally {
            SidecarWaitProcess.endTree(wrapper);
        }
    }
}
