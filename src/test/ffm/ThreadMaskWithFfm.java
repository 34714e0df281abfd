package dev.sidecarwait.process;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The race of MEASURED.md (e42584b), held still: while one thread of the process has every signal blocked, another
 * reads what the process inherited the way the native binary does at start ({@link NativeReplacer#startingNow()}).
 * In the native image the blocked thread was the thread group leader inside pthread_create, and the reader, main's
 * thread, read the leader's mask from /proc/self. Here the holder cannot be the leader (HotSpot's launcher keeps
 * the leader for itself, parked in pthread_join), so the reader also blocks a mask of its own (USR1 and 40, as the
 * runtime stand-in hands on) that neither the leader nor the holder has: it must read exactly that, its own.
 * pthread_sigmask through JDK 22+'s foreign function API. Prints the masks; exits 0 when the reader saw its own.
 * In package dev.sidecarwait.process to call the native path itself. Compiled and run by ThreadMaskTest.
 */
public final class ThreadMaskWithFfm {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PTHREAD_SIGMASK = handle("pthread_sigmask",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETTID = handle("gettid", FunctionDescriptor.of(JAVA_INT));
    private static final int SIG_BLOCK = 0;
    private static final int SIGSET_BYTES = 128;

    public static void main(String[] args) throws Throwable {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        int[] holderTid = new int[1];
        Thread holder = new Thread(() -> {
            try {
                block(-1L);
                holderTid[0] = (int) GETTID.invoke();
                holding.countDown();
                release.await();
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }, "holder");
        holder.setDaemon(true);
        holder.start();
        holding.await();

        long own = block(1L << 9 | 1L << 39);
        Inherited read = NativeReplacer.startingNow().atStart();
        String holderStatus = Files.readString(Path.of("/proc/self/task/" + holderTid[0] + "/status"));
        String leaderStatus = Files.readString(Path.of("/proc/self/status"));
        release.countDown();

        System.out.printf("reader %016x%nread %016x%nholder %016x%nleader %016x%n", own, read.blockedSignals(),
                Inherited.mask(holderStatus, "SigBlk"), Inherited.mask(leaderStatus, "SigBlk"));
        System.exit(read.unknown() == null && read.blockedSignals() == own ? 0 : 1);
    }

    /** Adds {@code signals} (bit N-1 for signal N) to this thread's mask; returns the mask it then has. */
    private static long block(long signals) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = arena.allocate(SIGSET_BYTES);
            set.set(JAVA_LONG, 0, signals);
            MemorySegment now = arena.allocate(SIGSET_BYTES);
            if ((int) PTHREAD_SIGMASK.invoke(SIG_BLOCK, set, MemorySegment.NULL) != 0
                    || (int) PTHREAD_SIGMASK.invoke(SIG_BLOCK, MemorySegment.NULL, now) != 0) {
                throw new IllegalStateException("pthread_sigmask failed");
            }
            return now.get(JAVA_LONG, 0);
        }
    }

    private static MethodHandle handle(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }
}
