package dev.sidecarwait;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** endTree ends what a test started, the children a dead parent left to init included. */
class SidecarWaitProcessTest {

    @TempDir
    Path dir;

    @Test
    void endTreeEndsTheTreeAndTheOrphansOfItsGroup() throws Exception {
        Path pids = dir.resolve("pids");
        List<String> command = new ArrayList<>(SidecarWaitProcess.ENTRYPOINT);
        // a child that stays below the root, and one orphaned at once (its subshell parent exits): init's, not the root's
        command.addAll(List.of("sh", "-c", "sleep 300 & echo $! >> \"$0\"; (sleep 300 & echo $! >> \"$0\"); "
                + "echo started >> \"$0\"; wait", pids.toString()));
        Process root = new ProcessBuilder(command).start();
        SidecarWaitProcess.awaitText(pids, "started");
        List<ProcessHandle> started = Files.readAllLines(pids).stream().filter(line -> line.matches("\\d+"))
                .map(pid -> ProcessHandle.of(Long.parseLong(pid)).orElseThrow()).toList();
        assertTrue(started.get(1).parent().map(parent -> parent.pid() != root.pid()).orElse(true),
                "the second sleep is not the root's any more");
        SidecarWaitProcess.endTree(root);
        for (ProcessHandle handle : started) {
            handle.onExit().completeOnTimeout(handle, 30, TimeUnit.SECONDS).get();
            assertFalse(handle.isAlive(), "pid " + handle.pid() + " outlived endTree");
        }
    }
}
