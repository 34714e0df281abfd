package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * --[no-]supervise and SIDECAR_WAIT_SUPERVISE: the usage errors, what the JVM (which cannot hand over) does with the
 * choice, and what the native binary does. The hand-over through JDK 25's foreign function API: HandoverProcessTest.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class SuperviseOptionTest {

    @Test
    void askingForTheHandOverWithAQuitIsAUsageError() {
        CliRun flag = CliRun.run(Map.of(), "wait", "--no-supervise", "--quit-sidecar", "--", "true");
        assertEquals(2, flag.exit());
        assertEquals("sidecar-wait wait: --no-supervise hands the process over to the command, so nothing can run after it: "
                + "drop it, or drop --quit-url and --quit-sidecar\n", flag.err());

        CliRun variable = CliRun.run(Map.of("SIDECAR_WAIT_SUPERVISE", "false"), "wait",
                "--quit-url", "http://localhost:15020/quitquitquit", "--", "true");
        assertEquals(2, variable.exit());
        assertTrue(variable.err().startsWith("sidecar-wait wait: SIDECAR_WAIT_SUPERVISE=false hands the process over"),
                variable.err());
        assertEquals(1, variable.errLines());
    }

    @Test
    void theFlagWithoutACommandAndABadValueAreUsageErrors() {
        CliRun alone = CliRun.run(Map.of(), "wait", "--supervise");
        assertEquals(2, alone.exit());
        assertEquals("sidecar-wait wait: --supervise is about the command after --, and there is none\n", alone.err());

        CliRun bad = CliRun.run(Map.of("SIDECAR_WAIT_SUPERVISE", "maybe"), "wait", "--", "true");
        assertEquals(2, bad.exit());
        assertEquals("sidecar-wait wait: invalid value for SIDECAR_WAIT_SUPERVISE: 'maybe' is not true or false\n", bad.err());
    }

    @Test
    void aStopSignalNeedsACommandAParentAndASignalTheCommandCanCatch() {
        CliRun alone = CliRun.run(Map.of(), "wait", "--stop-signal", "QUIT");
        assertEquals(2, alone.exit());
        assertEquals("sidecar-wait wait: --stop-signal QUIT is about the command after --, and there is none\n", alone.err());

        CliRun handOver = CliRun.run(Map.of(), "wait", "--no-supervise", "--stop-signal", "SIGQUIT", "--", "true");
        assertEquals(2, handOver.exit());
        assertEquals("sidecar-wait wait: --no-supervise hands the process over to the command (exec), and then SIGTERM "
                + "reaches it as it is: --stop-signal QUIT needs sidecar-wait to stay as its parent to turn SIGTERM into "
                + "SIGQUIT; drop one of them\n", handOver.err());
        CliRun handOverByVariables = CliRun.run(Map.of("SIDECAR_WAIT_SUPERVISE", "false", "SIDECAR_WAIT_STOP_SIGNAL", "3"),
                "wait", "--", "true");
        assertEquals(2, handOverByVariables.exit());
        assertTrue(handOverByVariables.err().startsWith("sidecar-wait wait: SIDECAR_WAIT_SUPERVISE=false hands the process "
                + "over to the command (exec), and then SIGTERM reaches it as it is: SIDECAR_WAIT_STOP_SIGNAL=3 needs"),
                handOverByVariables.err());

        CliRun kill = CliRun.run(Map.of(), "wait", "--stop-signal", "KILL", "--", "true");
        assertEquals(2, kill.exit());
        assertTrue(kill.err().startsWith("sidecar-wait wait: invalid value for --stop-signal: 'KILL' cannot be caught"),
                kill.err());
        CliRun bad = CliRun.run(Map.of("SIDECAR_WAIT_STOP_SIGNAL", "SIGQUITE"), "wait", "--", "true");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().startsWith("sidecar-wait wait: invalid value for SIDECAR_WAIT_STOP_SIGNAL: 'SIGQUITE' is not a "
                + "signal"), bad.err());
        for (CliRun run : new CliRun[] {alone, handOver, handOverByVariables, kill, bad}) {
            assertEquals(1, run.errLines(), run.err());
        }
    }

    @Test
    @Tag(SidecarWaitProcess.JVM_ONLY_TAG)
    void onTheJvmAnAskedForHandOverIsOneWarningAndOtherwiseOneInfoLineAndTheCommandIsSupervised() throws Exception {
        try (ServerSocket ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String url = "tcp://127.0.0.1:" + ready.getLocalPort();
            SidecarWaitProcess.Result asked = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url, "--no-supervise",
                    "--", "sh", "-c", "echo $PPID; exit 3");
            assertEquals(3, asked.exit(), asked.err());
            assertEquals(1, asked.err().lines().filter(line -> line.contains("\twarn\t")).count(), asked.err());
            assertTrue(asked.err().contains("\twarn\t--no-supervise: a JVM cannot replace itself with the command; "
                    + "supervising it instead (the native binary hands over)\n"), asked.err());
            assertTrue(asked.err().contains("sh exited with code 3"), asked.err());
            assertNotEquals("1\n", asked.out(), "the command's parent is the wrapper");

            SidecarWaitProcess.Result quietly = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url, "--", "true");
            assertEquals(0, quietly.exit(), quietly.err());
            assertTrue(quietly.err().contains("\tinfo\tSupervising the command: a JVM cannot replace itself with the "
                    + "command (the native binary hands over)\n"), "said without --verbose, to whoever expected the "
                    + "hand-over: " + quietly.err());
            assertTrue(!quietly.err().contains("\twarn\t"), quietly.err());
        }
    }

    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    void theNativeBinaryHandsOverByDefaultAndWhenAskedAndSupervisesWhenAsked() throws Exception {
        try (ServerSocket ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String url = "tcp://127.0.0.1:" + ready.getLocalPort();
            for (String choice : new String[] {"--no-supervise", "--verbose"}) {
                SidecarWaitProcess.Result handedOver = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url, choice,
                        "--", "sh", "-c", "echo $$; exit 3");
                assertEquals(3, handedOver.exit(), handedOver.err());
                assertTrue(handedOver.err().contains("handing over: sh now runs in its place (exec, pid "
                        + handedOver.out().strip() + ")"), handedOver.err());
                assertTrue(!handedOver.err().contains("\twarn\t"), handedOver.err());
            }
            SidecarWaitProcess.Result supervised = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url,
                    "--supervise", "--", "sh", "-c", "exit 3");
            assertEquals(3, supervised.exit(), supervised.err());
            assertTrue(supervised.err().contains("sh exited with code 3; exit code 3"), supervised.err());
        }
    }
}
