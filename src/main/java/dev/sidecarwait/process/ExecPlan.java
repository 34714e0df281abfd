package dev.sidecarwait.process;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Everything handing the process over to a command changes, decided here in plain Java and carried out by a
 * {@link ProcessReplacer}, so that the command cannot tell it was not started directly: the file the lookup found
 * (run as the container runtime runs it, with execve, no shell fallback); its arguments as the runtime passed them;
 * the signals ignored when this process started ignored again (as a shell passes them on: a handler installed
 * since would be reset to the default by the exec), any other ignored now back to the default (a handled one the
 * exec resets by itself); the main thread's inherited mask; and the descriptors to close, every one this process
 * opened (probe sockets, the PID-1 log mirror), and the native image runtime's own on its executable, which it opens
 * before main and so is among those open at start.
 */
public record ExecPlan(byte[] file, List<byte[]> argv, int[] ignored, int[] defaulted, int[] blocked, int[] close) {

    static final int SIGKILL = 9;
    static final int SIGSTOP = 19;
    /** glibc and musl keep 32 to 34 for their threads (SIGCANCEL, SIGSETXID, ...) and refuse to change them. */
    static final int FIRST_LIBC_OWN = 32;
    static final int LAST_LIBC_OWN = 34;
    /** Linux numbers its signals 1 to 64 (SIGRTMAX) on every architecture the binary is built for. */
    static final int LAST_SIGNAL = 64;

    /**
     * {@code found}: where the lookup found the command, whose name is {@code argv}'s first entry; {@code now}: the
     * same facts as {@code atStart}, read just before the hand-over.
     */
    public static ExecPlan of(CommandLookup.Found found, List<byte[]> argv, Inherited atStart, Inherited now) {
        List<Integer> ignored = new ArrayList<>();
        List<Integer> defaulted = new ArrayList<>();
        List<Integer> blocked = new ArrayList<>();
        for (int signal = 1; signal <= LAST_SIGNAL; signal++) {
            if (signal == SIGKILL || signal == SIGSTOP || signal >= FIRST_LIBC_OWN && signal <= LAST_LIBC_OWN) {
                continue; // cannot be caught, ignored or blocked; or libc refuses to let them be changed
            }
            if (atStart.ignores(signal)) {
                ignored.add(signal);
            } else if (now.ignores(signal)) {
                defaulted.add(signal);
            }
            if (atStart.blocks(signal)) {
                blocked.add(signal);
            }
        }
        Set<Integer> close = new TreeSet<>(now.descriptors());
        close.removeAll(atStart.descriptors());
        for (int fd : atStart.ownExecutable()) { // open at start, but the native image runtime's, not the container's
            if (now.descriptors().contains(fd)) {
                close.add(fd);
            }
        }
        return new ExecPlan(file(found, argv.get(0)), List.copyOf(argv), ints(ignored), ints(defaulted), ints(blocked),
                ints(close));
    }

    /** The name as given when it is a path, else the PATH entry it was found in, a slash and the name. */
    static byte[] file(CommandLookup.Found found, byte[] name) {
        if (found.directory() == null) {
            return name;
        }
        byte[] directory = (found.directory() + "/").getBytes(StandardCharsets.UTF_8);
        byte[] file = Arrays.copyOf(directory, directory.length + name.length);
        System.arraycopy(name, 0, file, directory.length, name.length);
        return file;
    }

    /** For the debug log: "signals ignored as inherited: 1, 12; back to the default: none; blocked: none; ...". */
    public String describe() {
        return "signals ignored as inherited: " + list(ignored) + "; back to the default: " + list(defaulted)
                + "; blocked: " + list(blocked)
                + "; descriptors closed: " + list(close);
    }

    private static int[] ints(java.util.Collection<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String list(int[] values) {
        return values.length == 0 ? "none"
                : Arrays.stream(values).mapToObj(Integer::toString).collect(Collectors.joining(", "));
    }
}
