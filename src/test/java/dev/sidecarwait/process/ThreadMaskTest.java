package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signal mask is a thread's: what the process inherited is read from the thread that will call execve, whatever
 * another thread has blocked meanwhile. The native binary read /proc/self, the thread group leader's, and handed a
 * command every signal blocked when it caught the leader inside pthread_create (MEASURED.md, e42584b: 2 to 4 starts
 * in 100 under load). No JVM run meets that window by chance, so src/test/ffm/ThreadMaskWithFfm.java holds it still:
 * one thread blocks every signal and waits while another, with a mask of its own, reads the state.
 */
class ThreadMaskTest {

    @TempDir
    Path dir;

    @Test
    void theStateIsReadFromTheReadingThreadWhileAnotherHoldsEverySignalBlocked() throws Exception {
        Path jdk = HandoverProcessTest.Jdk.withForeignFunctions();
        Process javac = new ProcessBuilder(jdk.resolve("bin/javac").toString(), "-d", dir.toString(), "-cp",
                System.getProperty("java.class.path"), "src/test/ffm/ThreadMaskWithFfm.java").redirectErrorStream(true).start();
        String compiled = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(javac, 120) && javac.exitValue() == 0, "javac ThreadMaskWithFfm.java: " + compiled);

        Process run = new ProcessBuilder(jdk.resolve("bin/java").toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                dir + ":" + System.getProperty("java.class.path"), "dev.sidecarwait.process.ThreadMaskWithFfm")
                .redirectErrorStream(true).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(run, 60), "finished");
        Map<String, String> masks = out.lines().filter(line -> line.matches("\\w+ [0-9a-f]+"))
                .collect(Collectors.toMap(line -> line.split(" ")[0], line -> line.split(" ")[1]));

        assertTrue(Long.parseUnsignedLong(masks.get("holder"), 16) >>> 40 != 0, "the holder really blocks everything: " + out);
        assertTrue((Long.parseUnsignedLong(masks.get("reader"), 16) & (1L << 9 | 1L << 39)) == (1L << 9 | 1L << 39), out);
        assertNotEquals(masks.get("leader"), masks.get("reader"), "the leader's mask is not the reader's, so reading it shows: " + out);
        assertEquals(masks.get("reader"), masks.get("read"), "read the reader's own mask, not the leader's nor the holder's: " + out);
        assertEquals(0, run.exitValue(), out);
        Files.deleteIfExists(dir.resolve("dev/sidecarwait/process/ThreadMaskWithFfm.class"));
    }
}
