package dev.sidecarwait.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ambient wait refuses to run as a postStart hook, where it would deadlock the pod (istio/istio#60969). A
 * container is played by a PID namespace (unshare --pid --mount-proc) whose PID 1 is its entrypoint; a hook, as
 * the runtime starts it, by nsenter into that namespace: its parent is outside, so its parent PID reads 0.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class PostStartGuardTest {

    private static final String REFUSED = "refusing to wait for ztunnel outside the container's entrypoint";

    @TempDir
    Path dir;

    private Process container;

    @BeforeEach
    void startContainer() throws Exception {
        container = new ProcessBuilder("unshare", "--pid", "--fork", "--mount-proc", "sleep", "120").start();
    }

    @AfterEach
    void stopContainer() throws Exception {
        SidecarWaitProcess.endTree(container);
    }

    /** The container's PID 1 (sleep), as the host sees it: unshare's child. */
    private long entrypoint() throws Exception {
        for (int i = 0; i < 200; i++) {
            Path children = Path.of("/proc", Long.toString(container.pid()), "task", Long.toString(container.pid()), "children");
            String text = Files.readString(children).trim();
            if (!text.isEmpty()) {
                return Long.parseLong(text.split(" ")[0]);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the container's entrypoint never started");
    }

    private record Run(int exit, String err) {
    }

    private Run run(List<String> prefix, String... waitArgs) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(SidecarWaitProcess.builder(waitArgs).command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_"));
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!SidecarWaitProcess.exited(process, 60)) {
            throw new AssertionError("did not finish");
        }
        return new Run(process.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }

    private List<String> hook() throws Exception {
        return List.of("nsenter", "-t", Long.toString(entrypoint()), "-p", "-m");
    }

    @Test
    void aHookIsRefusedAtOnceDirectlyAndThroughAShell() throws Exception {
        Run direct = run(hook(), "wait", "--mesh", "ambient", "--timeout", "30s");
        assertEquals(2, direct.exit(), direct.err());
        assertEquals(1, direct.err().lines().count(), direct.err());
        assertTrue(direct.err().contains(REFUSED), direct.err());
        assertTrue(direct.err().contains("istio/istio#60969") && direct.err().contains("sidecar-wait wait --mesh ambient -- app args")
                && direct.err().contains("init container") && direct.err().contains("--allow-post-start"), direct.err());

        List<String> shell = new ArrayList<>(hook());
        shell.addAll(List.of("sh", "-c", "\"$@\"; exit $?", "sh"));
        Run throughShell = run(shell, "wait", "--mesh", "ambient", "--timeout", "30s");
        assertEquals(2, throughShell.exit(), throughShell.err());
        assertTrue(throughShell.err().contains(REFUSED), throughShell.err());
    }

    @Test
    void theOverrideLetsAHookWait() throws Exception {
        Run run = run(hook(), "wait", "--mesh", "ambient", "--timeout", "1s", "--allow-post-start");
        assertEquals(1, run.exit(), "it waited, and nothing listens here: " + run.err());
        assertFalse(run.err().contains(REFUSED), run.err());
    }

    @Test
    void theEntrypointAndItsChildrenAreNotRefused() throws Exception {
        List<String> pid1 = List.of("unshare", "--pid", "--fork", "--mount-proc");
        Run asPid1 = run(pid1, "wait", "--mesh", "ambient", "--timeout", "1s");
        assertEquals(1, asPid1.exit(), asPid1.err());
        assertFalse(asPid1.err().contains(REFUSED), asPid1.err());
        assertTrue(asPid1.err().contains("nothing listens on port 15001, 15006, 15008"), asPid1.err());

        List<String> child = List.of("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", "\"$@\"; exit $?", "sh");
        Run asChild = run(child, "wait", "--mesh", "ambient", "--timeout", "1s");
        assertEquals(1, asChild.exit(), asChild.err());
        assertFalse(asChild.err().contains(REFUSED), asChild.err());
    }
}
