package dev.sidecarwait;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rooms of the code import downward only, as docs/development.md draws them: a package may use the ones below
 * it in this list, never one above (no import back up, so no cycle). The classes at the root (Main, Clock,
 * Version) are outside the layers.
 */
class PackageLayersTest {

    private static final List<String> BOTTOM_UP = List.of("sockets", "wire", "dns", "tls", "grpc", "probe", "kube", "mesh", "output", "check", "drain",
            "process", "startup", "nativeimage", "cli");
    /** An import, or a name written out in full. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.sidecarwait\\.([a-z]+)\\.[A-Z]");
    private static final Path SOURCES = Path.of("src/main/java/dev/sidecarwait");

    @Test
    void everyPackageIsALayerAndImportsOnlyTheLayersBelowIt() throws IOException {
        List<String> packages = new ArrayList<>();
        try (Stream<Path> entries = Files.list(SOURCES)) {
            entries.filter(Files::isDirectory).map(path -> path.getFileName().toString()).sorted().forEach(packages::add);
        }
        assertEquals(BOTTOM_UP.stream().sorted().toList(), packages, "every package has its place in the layers");

        List<String> upward = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String from = SOURCES.relativize(file).getName(0).toString();
                if (!BOTTOM_UP.contains(from)) {
                    continue;
                }
                Matcher imported = REFERENCE.matcher(Files.readString(file));
                while (imported.find()) {
                    String to = imported.group(1);
                    if (!to.equals(from) && BOTTOM_UP.indexOf(to) > BOTTOM_UP.indexOf(from)) {
                        upward.add(SOURCES.relativize(file) + " uses " + to);
                    }
                }
            }
        }
        assertEquals(List.of(), upward, "references that go up a layer");
    }

    /** One name, one meaning: no two files of the shipped code share a type's simple name, whatever their rooms. */
    @Test
    void noTwoTypesShareASimpleName() throws IOException {
        Map<String, List<String>> byName = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(path -> path.toString().endsWith(".java")).forEach(file -> byName.computeIfAbsent(
                    file.getFileName().toString(), name -> new ArrayList<>()).add(SOURCES.relativize(file).toString()));
        }
        byName.values().removeIf(places -> places.size() == 1);
        assertEquals(Map.of(), byName);
    }
}
