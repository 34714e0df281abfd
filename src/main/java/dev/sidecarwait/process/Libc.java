package dev.sidecarwait.process;

import static org.graalvm.nativeimage.c.function.CFunction.Transition.NO_TRANSITION;

import java.util.List;
import org.graalvm.nativeimage.StackValue;
import org.graalvm.nativeimage.UnmanagedMemory;
import org.graalvm.nativeimage.c.function.CFunction;
import org.graalvm.nativeimage.c.struct.SizeOf;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.nativeimage.c.type.CCharPointerPointer;
import org.graalvm.nativeimage.c.type.CIntPointer;
import org.graalvm.word.PointerBase;
import org.graalvm.word.WordFactory;

/**
 * The libc calls only the native image makes: sending any signal to the command, reaping orphans as PID 1,
 * replacing the process with the command, and giving back the binary's pages once a supervised command runs. Never
 * loaded on the JVM (callers check {@link NativeImage#RUNTIME}); the GraalVM SDK is a compile-time dependency and not
 * in the jar. Every decision is made before these calls, in plain Java ({@link ExecPlan}, {@link OwnPages}).
 */
final class Libc {

    private static final int WNOHANG = 1;
    private static final long SIG_DFL = 0;
    private static final long SIG_IGN = 1;
    private static final int SIG_SETMASK = 2;
    private static final int MADV_PAGEOUT = 21;
    /** sizeof(sigset_t) in glibc and musl: 1024 bits. */
    private static final int SIGSET_BYTES = 128;

    private Libc() {
    }

    @CFunction
    static native int kill(int pid, int signal);

    @CFunction
    private static native int waitpid(int pid, CIntPointer status, int options);

    @CFunction
    private static native PointerBase signal(int signal, PointerBase handler);

    @CFunction
    private static native int sigemptyset(PointerBase set);

    @CFunction
    private static native int sigaddset(PointerBase set, int signal);

    @CFunction
    private static native int sigprocmask(int how, PointerBase set, PointerBase oldSet);

    @CFunction
    private static native int close(int fd);

    @CFunction
    private static native int madvise(PointerBase address, long length, int advice);

    // No transition around these two: nothing may run between a failed execv and reading its errno.
    @CFunction(transition = NO_TRANSITION)
    private static native int execv(CCharPointer path, CCharPointerPointer argv);

    @CFunction(value = "__errno_location", transition = NO_TRANSITION)
    private static native CIntPointer errnoLocation();

    /** madvise(2) MADV_PAGEOUT (Linux 5.4): reclaim the range's pages now; 0, or -1 where the kernel does not know it. */
    static int pageOut(long address, long length) {
        return madvise(WordFactory.pointer(address), length, MADV_PAGEOUT);
    }

    /** Reaps {@code pid} if it has exited; true when it was reaped. */
    static boolean reap(int pid) {
        CIntPointer status = StackValue.get(CIntPointer.class);
        return waitpid(pid, status, WNOHANG) == pid;
    }

    /** signal(2) for each: SIG_IGN, or SIG_DFL. */
    static void setDispositions(int[] ignored, int[] defaulted) {
        for (int signal : ignored) {
            signal(signal, WordFactory.pointer(SIG_IGN));
        }
        for (int signal : defaulted) {
            signal(signal, WordFactory.pointer(SIG_DFL));
        }
    }

    /**
     * This thread's signal mask set to {@code blocked}, the descriptors in {@code close} closed, then execv(3): the
     * environment is this process's own. Returns only when execv failed: its errno. The C strings and the argument
     * array are in unmanaged memory, freed when the call returns.
     */
    static int exec(byte[] file, List<byte[]> argv, int[] blocked, int[] close) {
        PointerBase mask = StackValue.get(SIGSET_BYTES);
        sigemptyset(mask);
        for (int signal : blocked) {
            sigaddset(mask, signal);
        }
        sigprocmask(SIG_SETMASK, mask, WordFactory.nullPointer());
        for (int fd : close) {
            close(fd);
        }
        CCharPointer path = cString(file);
        CCharPointerPointer args = UnmanagedMemory.calloc((argv.size() + 1) * SizeOf.get(CCharPointerPointer.class));
        try {
            for (int i = 0; i < argv.size(); i++) {
                args.write(i, cString(argv.get(i)));
            }
            execv(path, args);
            return errnoLocation().read();
        } finally {
            for (int i = 0; i < argv.size(); i++) {
                UnmanagedMemory.free(args.read(i));
            }
            UnmanagedMemory.free(args);
            UnmanagedMemory.free(path);
        }
    }

    /** The bytes and a terminating NUL, in unmanaged memory. */
    static CCharPointer cString(byte[] bytes) {
        CCharPointer text = UnmanagedMemory.calloc(bytes.length + 1);
        for (int i = 0; i < bytes.length; i++) {
            text.write(i, bytes[i]);
        }
        return text;
    }
}
