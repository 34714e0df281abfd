package dev.sidecarwait.drain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Whether the proxy's process is still there, by name in /proc/PID/comm. "Gone" needs it to have been seen
 * first: from a container that cannot see the proxy's processes, it is never known to be gone.
 */
final class ProxyProcess {

    private final Path proc;
    private final Set<String> names;
    private boolean seen;

    ProxyProcess(Path proc, Set<String> names) {
        this.proc = proc;
        this.names = Set.copyOf(names);
    }

    /** Looks once, until the proxy has been seen: after that, only {@link #gone} needs to look. */
    void noteIfRunning() {
        seen = seen || running();
    }

    /** True once a process seen running earlier is no longer there. */
    boolean gone() {
        boolean running = running();
        seen |= running;
        return seen && !running;
    }

    private boolean running() {
        // the processes' directories, named by their pids (a filter, not the glob "[0-9]*", which compiles a regex)
        DirectoryStream.Filter<Path> pids = entry -> Character.isDigit(entry.getFileName().toString().charAt(0));
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, pids)) {
            for (Path process : processes) {
                try {
                    if (names.contains(Files.readString(process.resolve("comm"), StandardCharsets.UTF_8).strip())) {
                        return true;
                    }
                } catch (IOException exitedMeanwhile) {
                    // not this one
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }
}
