package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where this process comes from, within its PID namespace. Everything under a container's entrypoint descends
 * from the namespace's PID 1; a process the runtime starts by exec (a postStart or preStop hook, kubectl exec)
 * has a parent outside the namespace, whose PID reads 0 from inside, and is not PID 1. A hook may be a shell
 * (sh -c "sidecar-wait wait ..."), so the chain is walked up to its top.
 */
public final class ParentChain {

    private final Path proc;

    public ParentChain(Path proc) {
        this.proc = proc;
    }

    /** The first process up the chain from this one whose parent PID reads 0: 1 under the entrypoint. */
    public long top() throws IOException {
        String self = Files.readString(proc.resolve("self/stat"), StandardCharsets.US_ASCII);
        long current = Long.parseLong(self.substring(0, self.indexOf(' ')));
        long parent = parentPid(self);
        for (int hops = 0; parent != 0; hops++) {
            if (hops > 4096) {
                throw new IOException("the chain of parent processes has no end");
            }
            current = parent;
            parent = parentPid(Files.readString(proc.resolve(current + "/stat"), StandardCharsets.US_ASCII));
        }
        return current;
    }

    /**
     * The fourth field of /proc/PID/stat: "PID (COMM) STATE PPID ...". The command name may hold spaces and
     * parentheses, so the fields are counted from the last ')'.
     */
    static long parentPid(String stat) throws IOException {
        int close = stat.lastIndexOf(')');
        String[] after = close < 0 ? new String[0] : stat.substring(close + 1).trim().split("\\s+");
        if (after.length < 2) {
            throw new IOException("unexpected /proc stat line: " + stat.strip());
        }
        try {
            return Long.parseLong(after[1]);
        } catch (NumberFormatException e) {
            throw new IOException("unexpected /proc stat line: " + stat.strip());
        }
    }
}
