package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The binary's pages given back once a supervised command runs: which mappings, and the process's own account of it. */
class OwnPagesTest {

    @TempDir
    Path dir;

    /** As Linux 6.x writes them: the executable's mappings, others, a path with a space, one since deleted. */
    @Test
    void theExecutablesMappingsAreReadFromProcSelfMaps() {
        String maps = """
                00200000-0065d000 r--p 00000000 fd:01 1311                               /sidecar-wait/sidecar-wait
                0065d000-00b2a000 r-xp 0045c000 fd:01 1311                               /sidecar-wait/sidecar-wait
                00b2a000-00d2b000 rw-p 00928000 fd:01 1311                               /sidecar-wait/sidecar-wait
                00d2b000-00d2c000 rw-p 00000000 00:00 0                                  [heap]
                7f0000000000-7f0000100000 rw-p 00000000 00:00 0
                7f0000200000-7f0000300000 r--p 00000000 fd:01 77                         /sidecar-wait/sidecar-wait (deleted)
                7f0000400000-7f0000401000 r--p 00000000 fd:01 78                         /opt/my app/sidecar-wait
                7ffd1c2f3000-7ffd1c314000 rw-p 00000000 00:00 0                          [stack]
                """;
        assertEquals(List.of(new OwnPages.Mapping(0x200000, 0x65d000), new OwnPages.Mapping(0x65d000, 0xb2a000),
                new OwnPages.Mapping(0xb2a000, 0xd2b000)), OwnPages.of(maps, "/sidecar-wait/sidecar-wait"));
        assertEquals(List.of(new OwnPages.Mapping(0x7f0000400000L, 0x7f0000401000L)), OwnPages.of(maps, "/opt/my app/sidecar-wait"));
        assertEquals(List.of(), OwnPages.of("garbage\n-\nzz-yy r--p 0 0 0 /x\n", "/x"));
    }

    /**
     * When the pages may go back: once the child no longer runs this process's own executable (the exec stage has become
     * the command) or is gone. On the JVM the test process's own executable (java) stands for the binary.
     */
    @Test
    void thePagesGoBackOnceTheChildNoLongerRunsThisExecutable() throws Exception {
        Path sleeps = Files.writeString(dir.resolve("Sleeps.java"),
                "class Sleeps { public static void main(String[] a) throws Exception { Thread.sleep(30_000); } }");
        Process sameFile = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), sleeps.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            assertFalse(OwnPages.commandRuns(sameFile.pid()), "a child still on this executable");
            assertTrue(sameFile.isAlive());
            assertTrue(OwnPages.commandRuns(other.pid()), "a child that runs another program");
        } finally {
            SidecarWaitProcess.endTree(sameFile);
            SidecarWaitProcess.endTree(other);
        }
        assertTrue(OwnPages.commandRuns(other.pid()), "a child that is gone");
    }

    /**
     * A supervising wrapper keeps little of its own file resident while the command runs: what the start and the wait
     * read (some 9 MiB of code and image heap, fault-around's 64 KiB windows) is given back. The binary's own account
     * in /proc/PID/smaps, summed over the mappings of its file; and the heap the wait filled, the anonymous mappings'.
     * And it runs on two threads, no signal dispatcher or process reaper among them (process/Inbox.java).
     */
    @Test
    @Tag(SidecarWaitProcess.PROCESS_TAG)
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    @Tag(SidecarWaitProcess.QEMU_IGNORES_PAGEOUT)
    void aSupervisingWrapperGivesBackTheBinarysPagesOnceTheCommandRuns() throws Exception {
        Path err = dir.resolve("err.txt");
        try (ServerSocket ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            Process wrapper = SidecarWaitProcess.builder("wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(),
                    "--supervise", "--verbose", "--", "sleep", "60").redirectError(err.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                SidecarWaitProcess.awaitText(err, "Giving back the pages of the binary's file the start and the wait read");
                Thread.sleep(500); // the line comes just before the call
                long binary = 0;
                long anonymous = 0;
                String file = Files.readSymbolicLink(Path.of("/proc/" + wrapper.pid() + "/exe")).toString();
                boolean mine = false;
                boolean noFile = false;
                for (String line : Files.readAllLines(Path.of("/proc/" + wrapper.pid() + "/smaps"))) {
                    if (line.matches("[0-9a-f]+-[0-9a-f]+ .*")) {
                        mine = line.endsWith(" " + file);
                        String[] fields = line.trim().split("\\s+", 6); // address perms offset dev inode [pathname]
                        noFile = fields.length < 6 || fields[5].startsWith("[");
                    } else if (mine && line.startsWith("Rss:")) {
                        binary += Long.parseLong(line.replaceAll("[^0-9]", ""));
                    } else if (noFile && line.startsWith("Private_Dirty:")) {
                        anonymous += Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
                assertTrue(binary < 2048, "the binary's file pages resident while the command runs: " + binary + " kB");
                // the heap chunks the start and the wait filled are given back too (a collection, -R:MaxHeapFree=1):
                // about 150 kB of anonymous memory stays (stacks, what is still live); e4429fe's build, which kept them, 372 kB
                assertTrue(anonymous < 256, "the wrapper's anonymous memory while the command runs: " + anonymous + " kB");
                // and two threads: the first, which waits for main's (GraalVM on musl), and main's, which supervises
                List<String> threads = new java.util.ArrayList<>();
                try (var tasks = Files.list(Path.of("/proc/" + wrapper.pid() + "/task"))) {
                    for (Path task : tasks.toList()) {
                        threads.add(Files.readString(task.resolve("comm")).strip());
                    }
                }
                assertEquals(2, threads.size(), "the supervising wrapper's threads: " + threads);
            } finally {
                SidecarWaitProcess.endTree(wrapper);
            }
        }
    }
}
