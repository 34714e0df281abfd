package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A probe's socket connected to itself is not a server. Where nothing listens on a port of the kernel's ephemeral
 * range, Linux may give a connecting socket that very port as its own end, and TCP's simultaneous open then connects
 * it to itself: it reads back what it writes. On this machine's kernel, at 732289e, a wait on tcp://127.0.0.1:50010
 * with nothing there said "is ready!" after 6 attempts. Here it is made certain: a network namespace of the test's own
 * whose ephemeral range is the port asked and the next, so the kernel's first connect (to an even port first, as
 * connect(2) draws them) is given the port it connects to.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class SelfConnectionProcessTest {

    private static final int PORT = 40000;
    private static final String NAMESPACE = """
            ip link set lo up || exit 97
            echo "$SELF_PORT $((SELF_PORT + 1))" > /proc/sys/net/ipv4/ip_local_port_range || exit 98
            exec "$@"
            """;

    @TempDir
    Path dir;

    @Test
    void checkSaysNothingListensWhereTheSocketConnectedToItself() throws Exception {
        SidecarWaitProcess.Result check = inOwnNetwork("check", "--url", "tcp://127.0.0.1:" + PORT);
        assertEquals(1, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("NOT READY") && check.out().contains(Connector.SELF_CONNECTED), check.out());
    }

    @Test
    void aWaitOnAPortWhereNothingListensIsNeverReady() throws Exception {
        SidecarWaitProcess.Result wait = inOwnNetwork("wait", "--url", "tcp://127.0.0.1:" + PORT, "--timeout", "1s",
                "--period", "100ms", "--termination-log", dir.resolve("termination-log").toString());
        assertEquals(1, wait.exit(), wait.err());
        assertFalse(wait.err().contains("is ready!"), wait.err());
        assertTrue(wait.err().contains("NOT READY before the timeout"), wait.err());
    }

    private SidecarWaitProcess.Result inOwnNetwork(String... args) throws Exception {
        ProcessBuilder tool = SidecarWaitProcess.builder(args);
        List<String> command = new ArrayList<>(List.of("unshare", "--net", "bash", "-c", NAMESPACE, "namespace"));
        command.addAll(tool.command());
        tool.command(command);
        tool.environment().put("SELF_PORT", Integer.toString(PORT));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = tool.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!SidecarWaitProcess.exited(process, 60)) {
            throw new AssertionError("did not finish: " + Files.readString(err));
        }
        assertTrue(process.exitValue() < 97, "the namespace was not made: " + Files.readString(err));
        return new SidecarWaitProcess.Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
