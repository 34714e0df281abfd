import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of the image heap some runs read or wrote, for native/heap-order.txt (scripts/code-order.sh). Reads the
 * builder's heap map (one "OFFSET SIZE PARTITION NAME" per object, written by native/builder/ChunkedImageHeapPartition.java
 * when sidecarwait.heapMap is set) and one valgrind lackey trace per run (--trace-mem=yes: " L ADDRESS,SIZE" for a
 * load, S a store, M both). Prints each touched object's name once: those some run wrote to first, so that the pages a
 * run writes (its own copies, for the rest of its life) are few, then those only read; in each, those most runs
 * touched first, then in the order the first run to touch it did. On stderr, what each run touched. Run on any JDK 17
 * or later:
 * java HeapTouches.java HEAP_MAP HEAP_ADDRESS TRACE...
 */
public final class HeapTouches {

    private record Placed(long offset, long size, String partition, String name) {
    }

    public static void main(String[] args) throws IOException {
        List<Placed> heap = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            String[] fields = line.split(" ", 4);
            heap.add(new Placed(Long.parseLong(fields[0]), Long.parseLong(fields[1]), fields[2], fields[3]));
        }
        heap.sort(Comparator.comparingLong(Placed::offset));
        long[] starts = heap.stream().mapToLong(Placed::offset).toArray();
        long base = Long.decode(args[1]);

        Map<String, Integer> runs = new HashMap<>();
        Map<String, Long> firstSeen = new HashMap<>();
        Set<String> written = new java.util.HashSet<>();
        long sequence = 0;
        for (int i = 2; i < args.length; i++) {
            Set<Placed> stored = new java.util.HashSet<>();
            Set<Placed> touched = touched(Path.of(args[i]), heap, starts, base, stored);
            for (Placed object : touched) {
                runs.merge(object.name(), 1, Integer::sum);
                firstSeen.putIfAbsent(object.name(), sequence++);
            }
            stored.forEach(object -> written.add(object.name()));
            report(args[i], touched);
        }
        runs.keySet().stream()
                .sorted(Comparator.<String, Boolean>comparing(name -> !written.contains(name))
                        .thenComparing(Comparator.<String>comparingInt(runs::get).reversed())
                        .thenComparing(firstSeen::get))
                .forEach(System.out::println);
    }

    /** The objects the trace's loads and stores fall in, in the order of their first touch; those stored to also in {@code stored}. */
    private static Set<Placed> touched(Path trace, List<Placed> heap, long[] starts, long base, Set<Placed> stored)
            throws IOException {
        Set<Placed> touched = new LinkedHashSet<>();
        long end = base + starts[starts.length - 1] + heap.get(heap.size() - 1).size();
        try (BufferedReader lines = Files.newBufferedReader(trace, StandardCharsets.ISO_8859_1)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.length() < 4 || line.charAt(0) != ' ' || "LSM".indexOf(line.charAt(1)) < 0) {
                    continue;
                }
                int comma = line.indexOf(',', 3);
                long address = Long.parseLong(line.substring(3, comma), 16);
                if (address < base || address >= end) {
                    continue;
                }
                int at = Arrays.binarySearch(starts, address - base);
                at = at >= 0 ? at : -at - 2;
                if (at >= 0 && address - base < starts[at] + heap.get(at).size()) {
                    touched.add(heap.get(at));
                    if (line.charAt(1) != 'L') {
                        stored.add(heap.get(at));
                    }
                }
            }
        }
        return touched;
    }

    private static void report(String run, Set<Placed> touched) {
        Map<String, long[]> byPartition = new HashMap<>(); // objects, bytes, 4 KiB pages
        Map<String, Set<Long>> pages = new HashMap<>();
        for (Placed object : touched) {
            long[] sums = byPartition.computeIfAbsent(object.partition(), p -> new long[3]);
            sums[0]++;
            sums[1] += object.size();
            Set<Long> seen = pages.computeIfAbsent(object.partition(), p -> new java.util.HashSet<>());
            for (long page = object.offset() >> 12; page <= (object.offset() + object.size() - 1) >> 12; page++) {
                seen.add(page);
            }
        }
        byPartition.forEach((partition, sums) -> System.err.printf("%s: %s: %d objects, %d bytes, on %d pages of 4 KiB%n",
                run, partition, sums[0], sums[1], pages.get(partition).size()));
    }
}
