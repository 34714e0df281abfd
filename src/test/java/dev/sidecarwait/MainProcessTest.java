package dev.sidecarwait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The real entry point in its own process: exit codes, and what goes to which stream. */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class MainProcessTest {

    @Test
    void readyExitsZeroAndWritesNothingToStdout() throws Exception {
        try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null,
                    "wait", "--url", "tcp://localhost:" + proxy.getLocalPort());
            assertEquals(0, run.exit(), run.err());
            assertEquals("", run.out());
            assertTrue(run.err().contains("tcp://localhost:" + proxy.getLocalPort() + " is ready!"), run.err());
        }
    }

    @Test
    void timeoutExitsOne() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null,
                "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "600ms", "--period", "200ms");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("connection refused"), run.err());
    }

    @Test
    void badInputIsOneLineAndExitTwoWithoutAStackTrace() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of("SIDECAR_WAIT_PERIOD", "often"), null, "wait");
        assertEquals(2, run.exit());
        assertEquals("sidecar-wait wait: invalid value for SIDECAR_WAIT_PERIOD: 'often' is not a duration "
                + "(use a number and a unit: 500ms, 90s, 2m, 1h)\n", run.err());
    }

    @Test
    void noCommandShowsUsageAndExitsTwo() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null);
        assertEquals(2, run.exit());
        assertTrue(run.err().startsWith("Usage: sidecar-wait"), run.err());
    }

    @Test
    void versionAndHelpGoToStdout() throws Exception {
        SidecarWaitProcess.Result version = SidecarWaitProcess.run(Map.of(), null, "--version");
        assertEquals(0, version.exit());
        String runtime = SidecarWaitProcess.NATIVE ? "native" : "jar on Java " + Runtime.version().feature();
        assertTrue(version.out().matches("sidecar-wait \\d+\\.\\d+\\.\\d+ \\(commit ([\\w.-]+-g)?[0-9a-f]{7}(-dirty)?, "
                + SidecarWaitProcess.PLATFORM + ", " + runtime + "\\)\\n"), version.out());
        SidecarWaitProcess.Result help = SidecarWaitProcess.run(Map.of(), null, "wait", "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("--timeoutSeconds"), help.out());
        assertTrue(help.out().contains("Examples:"), help.out());
    }
}
