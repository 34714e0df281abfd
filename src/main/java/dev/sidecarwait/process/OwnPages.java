package dev.sidecarwait.process;

import dev.sidecarwait.output.Log;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The pages of the binary's own file that the start and the wait brought in, given back once the supervised command
 * runs: madvise(MADV_PAGEOUT) over each mapping of the executable (its code and its image heap), as /proc/self/maps
 * lists them. A clean page leaves the process, and the page cache too where nothing else maps it; a page the wait
 * wrote stays where it is (a pod has no swap; with swap it would be swapped out, never lost). What the supervisor
 * runs again (a signal passed on, the command's exit) is read back in when it runs. Linux 5.4 and later: an older
 * kernel answers EINVAL and nothing changes. Before them, the heap: a collection, which leaves the few objects still
 * live and gives the chunks the wait filled back to the kernel. In the native image only: a JVM's memory is not a
 * file's.
 */
final class OwnPages {

    /** One mapping of the executable, [start, end). */
    record Mapping(long start, long end) {
    }

    /** How long the supervisor waits for its exec stage to become the command before it gives the pages back anyway. */
    static final long WAIT_FOR_THE_COMMAND_NANOS = 2_000_000_000L;

    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final Path EXE = Path.of("/proc/self/exe");
    /** A native image has some twenty mappings; a list past this is not read further. */
    private static final int MAX_MAPS_BYTES = 1 << 20;

    private OwnPages() {
    }

    /**
     * Whether {@code pid} no longer runs this binary: the exec stage a supervised command starts through has replaced
     * itself with the command (or is gone), so the binary's pages are mapped here alone, and can be given back.
     */
    static boolean commandRuns(long pid) {
        try {
            return !Files.readSymbolicLink(Path.of("/proc/" + pid + "/exe")).equals(Files.readSymbolicLink(EXE));
        } catch (IOException gone) {
            return true;
        }
    }

    /**
     * Gives the pages back, saying so at debug first: the line is written before, so that writing it reads nothing
     * back in; only a refusal (a kernel before 5.4) is said after.
     */
    static void giveBack(Log log) {
        List<Mapping> mappings;
        try (InputStream maps = Files.newInputStream(MAPS)) {
            String text = new String(maps.readNBytes(MAX_MAPS_BYTES), StandardCharsets.ISO_8859_1);
            mappings = of(text, Files.readSymbolicLink(EXE).toString());
        } catch (IOException unreadable) {
            log.debug("The binary's pages stay resident: " + unreadable.getMessage());
            return;
        }
        long bytes = mappings.stream().mapToLong(mapping -> mapping.end() - mapping.start()).sum();
        log.debug("Giving back the pages of the binary's file the start and the wait read (MADV_PAGEOUT over its "
                + mappings.size() + " mappings, " + (bytes >> 10) + " KiB)");
        // First the heap the start and the wait filled: the collection reads the image heap (before its pages go), and
        // hands the emptied heap chunks back to the kernel, keeping none (-R:MaxHeapFree=1, native-image.properties).
        System.gc();
        int refused = 0;
        for (Mapping mapping : mappings) {
            refused += Libc.pageOut(mapping.start(), mapping.end() - mapping.start()) == 0 ? 0 : 1;
        }
        if (refused > 0) {
            log.debug("MADV_PAGEOUT refused for " + refused + " of them: a kernel before Linux 5.4 has none");
        }
    }

    /** The mappings of {@code maps} (/proc/PID/maps) whose pathname is {@code executable}. */
    static List<Mapping> of(String maps, String executable) {
        List<Mapping> mine = new ArrayList<>();
        for (String line : maps.split("\n")) {
            String[] fields = line.trim().split("\\s+", 6); // address perms offset dev inode pathname
            if (fields.length < 6 || !fields[5].equals(executable)) {
                continue;
            }
            int dash = fields[0].indexOf('-');
            try {
                long start = Long.parseUnsignedLong(fields[0].substring(0, dash), 16);
                long end = Long.parseUnsignedLong(fields[0].substring(dash + 1), 16);
                if (Long.compareUnsigned(start, end) < 0) {
                    mine.add(new Mapping(start, end));
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException notARange) {
                // the kernel writes none such; a line cut at the cap is passed by
            }
        }
        return mine;
    }
}
