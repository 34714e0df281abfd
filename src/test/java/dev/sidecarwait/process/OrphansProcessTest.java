package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * As a container's PID 1 (a PID namespace of its own, as unshare makes one), the native binary reaps every orphan
 * that ends while it supervises: the kernel makes PID 1 the parent of a process whose parent has gone, and an orphan
 * nobody waits for stays a zombie. The JVM cannot (it logs so at --verbose).
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
@Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
class OrphansProcessTest {

    @TempDir
    Path dir;

    @Test
    void asPidOneItReapsAnOrphanWhenItEnds() throws Exception {
        Path err = dir.resolve("err.txt");
        try (ServerSocket ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            List<String> command = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc"));
            command.addAll(SidecarWaitProcess.launcher());
            // the inner shell leaves a sleep behind it and ends: the sleep's parent is now PID 1, the wrapper
            command.addAll(List.of("wait", "--verbose", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(), "--supervise",
                    "--", "sh", "-c", "sh -c 'sleep 0.5 &'; sleep 60"));
            Process unshare = new ProcessBuilder(command).redirectError(err.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                SidecarWaitProcess.awaitText(err, "Reaped orphaned process");
                long wrapper = unshare.children().findFirst().orElseThrow().pid();
                assertEquals(List.of(), zombiesOf(wrapper), "no child of the wrapper left a zombie");
                assertTrue(Files.readString(err).contains("Started sh"), Files.readString(err));
            } finally {
                SidecarWaitProcess.endTree(unshare);
            }
        }
    }

    /** The pids, as this side of the namespace sees them, of {@code parent}'s children that are zombies ("Z" in stat). */
    private static List<Long> zombiesOf(long parent) throws IOException {
        List<Long> zombies = new ArrayList<>();
        try (var processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                String stat;
                try {
                    stat = Files.readString(process.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (fields[0].equals("Z") && Long.parseLong(fields[1]) == parent) {
                    zombies.add(Long.parseLong(process.getFileName().toString()));
                }
            }
        }
        return zombies;
    }
}
