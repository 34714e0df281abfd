package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * What the container runtime handed this process and a command it hands over to must get unchanged: the
 * signals it ignores, the signals blocked on the thread that reads them (the one that later calls execve), and its
 * open file descriptors. Read when the process starts, before anything of ours opens a descriptor or installs a
 * signal handler. {@code ownExecutable}: those of
 * the descriptors that refer to this process's own executable, which the native image runtime opens for itself
 * before main (no container runtime hands a process its own binary). {@code unknown} says why it could not be
 * read; it is null when it was.
 */
public record Inherited(long ignoredSignals, long blockedSignals, Set<Integer> descriptors, Set<Integer> ownExecutable,
                        String unknown) {

    /** The calling thread's /proc directory; its fd and exe are the process's, its status has its own SigBlk. */
    public static final Path THIS_THREAD = Path.of("/proc/thread-self");

    public Inherited {
        descriptors = Set.copyOf(descriptors);
        ownExecutable = Set.copyOf(ownExecutable);
    }

    /** With no descriptor on the process's own executable. */
    public Inherited(long ignoredSignals, long blockedSignals, Set<Integer> descriptors, String unknown) {
        this(ignoredSignals, blockedSignals, descriptors, Set.of(), unknown);
    }

    /**
     * The calling thread's view: /proc/thread-self. A signal mask belongs to a thread, and /proc/self is the thread
     * group leader's, which need not be the thread that runs main. The native image runs main on a thread the leader
     * creates; while the leader is inside pthread_create, musl blocks every signal on it and restores them after, so
     * /proc/self read at that moment showed every signal blocked, and the hand-over passed that on to the command
     * (2 to 4 starts in 100 under load, MEASURED.md of e42584b). The thread running main has the mask the process
     * was given, and it is the thread that calls execve.
     */
    public static Inherited ofThisThread() {
        return read(THIS_THREAD);
    }

    public static Inherited unknown(String why) {
        return new Inherited(0, 0, Set.of(), why);
    }

    /** {@code procSelf}/status (SigIgn, and the SigBlk of the thread it describes) and {@code procSelf}/fd. */
    public static Inherited read(Path procSelf) {
        try {
            String status = Files.readString(procSelf.resolve("status"), StandardCharsets.ISO_8859_1);
            Set<Integer> open = Descriptors.open(procSelf.resolve("fd"));
            return new Inherited(mask(status, "SigIgn"), mask(status, "SigBlk"), open, onOwnExecutable(procSelf, open), null);
        } catch (IOException | IllegalArgumentException e) {
            return unknown("cannot read " + procSelf + ": " + e.getMessage());
        }
    }

    /** Those of {@code open} that are on the process's executable; none when its link cannot be read. */
    private static Set<Integer> onOwnExecutable(Path procSelf, Set<Integer> open) {
        try {
            return Descriptors.onFile(procSelf.resolve("fd"), open, Files.readSymbolicLink(procSelf.resolve("exe")));
        } catch (IOException unreadable) {
            return Set.of();
        }
    }

    public boolean ignores(int signal) {
        return (ignoredSignals >>> (signal - 1) & 1) != 0;
    }

    public boolean blocks(int signal) {
        return (blockedSignals >>> (signal - 1) & 1) != 0;
    }

    /** "SigIgn:\t0000000000001001": a hexadecimal mask, bit N-1 for signal N. */
    static long mask(String status, String field) {
        for (String line : status.split("\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseUnsignedLong(line.substring(field.length() + 1).trim(), 16);
            }
        }
        throw new IllegalArgumentException("no " + field + " line in status");
    }
}
