package dev.sidecarwait.drain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which process holds a socket, from the "socket:[INODE]" links in /proc/PID/fd. Only the processes this
 * one may inspect are seen: its own container's, or the whole pod's with shareProcessNamespace (and enough
 * privilege). A socket no visible process holds has no owner here.
 */
public final class SocketOwners {

    /** A process that holds a socket. */
    public record Owner(long pid, String name) {
    }

    private final Path proc;

    public SocketOwners(Path proc) {
        this.proc = proc;
    }

    /** The owners of the given socket inodes, as far as they can be seen. */
    public Map<Long, Owner> of(Set<Long> inodes) {
        Map<Long, Owner> owners = new HashMap<>();
        if (inodes.isEmpty()) {
            return owners;
        }
        // the processes' directories, named by their pids (a filter, not the glob "[0-9]*", which compiles a regex)
        DirectoryStream.Filter<Path> pids = entry -> Character.isDigit(entry.getFileName().toString().charAt(0));
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, pids)) {
            for (Path process : processes) {
                scan(process, inodes, owners);
                if (owners.size() == inodes.size()) {
                    break;
                }
            }
        } catch (IOException e) {
            return owners;
        }
        return owners;
    }

    private void scan(Path process, Set<Long> inodes, Map<Long, Owner> owners) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException | UnsupportedOperationException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith("socket:[")) {
                    long inode = Long.parseLong(target.substring(8, target.length() - 1));
                    if (inodes.contains(inode) && !owners.containsKey(inode)) {
                        owners.put(inode, new Owner(Long.parseLong(process.getFileName().toString()), name(process)));
                    }
                }
            }
        } catch (IOException | RuntimeException notOursToSee) {
            // another user's process, or one that exited while we looked
        }
    }

    private static String name(Path process) {
        try {
            return Files.readString(process.resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "?";
        }
    }
}
