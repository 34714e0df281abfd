package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/** The file descriptors a process has open, from its /proc/PID/fd. */
public final class Descriptors {

    private Descriptors() {
    }

    /** Every open descriptor but the one this listing itself opens to read the directory. */
    public static Set<Integer> open(Path fdDirectory) throws IOException {
        Path listing = fdDirectory.toRealPath(); // what the listing's own descriptor links to: /proc/PID/fd
        Set<Integer> open = new TreeSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(fdDirectory)) {
            for (Path entry : entries) {
                Path target;
                try {
                    target = Files.readSymbolicLink(entry);
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (!target.equals(listing)) {
                    open.add(Integer.parseInt(entry.getFileName().toString()));
                }
            }
        } catch (NumberFormatException e) {
            throw new IOException("not a descriptor listing: " + fdDirectory);
        }
        return open;
    }

    /** Those of {@code descriptors} that are open on {@code file} (their /proc/PID/fd link names it). */
    public static Set<Integer> onFile(Path fdDirectory, Set<Integer> descriptors, Path file) {
        Set<Integer> on = new TreeSet<>();
        for (int fd : descriptors) {
            try {
                if (Files.readSymbolicLink(fdDirectory.resolve(Integer.toString(fd))).equals(file)) {
                    on.add(fd);
                }
            } catch (IOException closedMeanwhile) {
                // not open any more: nothing to close
            }
        }
        return on;
    }
}
