package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding unreaped children in the real /proc, and in captured stat lines with awkward command names. */
class ZombiesTest {

    @Test
    void findsTheRealZombieChildOfARealProcess() throws Exception {
        // sh starts a short-lived child, then execs into sleep, which never reaps it: a zombie whose parent is sh's pid.
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0.01 & exec sleep 30").start();
        try {
            Zombies zombies = new Zombies(Path.of("/proc"));
            List<Long> found = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (found.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
                found = zombies.childrenOf(parent.pid());
            }
            assertEquals(1, found.size(), "one zombie child of " + parent.pid());
            assertTrue(zombies.childrenOf(ProcessHandle.current().pid()).isEmpty(), "the test JVM has none");
        } finally {
            SidecarWaitProcess.endTree(parent);
        }
    }

    @Test
    void readsStatLinesWhoseCommandNameHasSpacesAndParentheses(@TempDir Path proc) throws Exception {
        write(proc, 101, "101 (odd) name)) Z 1 101 101 0 -1 4194560");
        write(proc, 102, "102 (sleep) S 1 102 102 0 -1 4194560");
        write(proc, 103, "103 (zombie) Z 7 103 103 0 -1 4194560");
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("104")); // exited between listing and reading: no stat file
        assertEquals(List.of(101L), new Zombies(proc).childrenOf(1));
        assertEquals(List.of(103L), new Zombies(proc).childrenOf(7));
    }

    private static void write(Path proc, long pid, String stat) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("stat"), stat + "\n");
    }
}
