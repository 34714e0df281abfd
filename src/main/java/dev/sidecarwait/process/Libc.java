package dev.sidecarwait.process;

import org.graalvm.nativeimage.StackValue;
import org.graalvm.nativeimage.c.function.CFunction;
import org.graalvm.nativeimage.c.type.CIntPointer;

/**
 * The libc calls only the native image makes: sending any signal to the command, and reaping orphans as
 * PID 1. Never loaded on the JVM (callers check {@link NativeImage#RUNTIME}); the GraalVM SDK is a
 * compile-time dependency and not in the jar.
 */
final class Libc {

    private static final int WNOHANG = 1;

    private Libc() {
    }

    @CFunction
    static native int kill(int pid, int signal);

    @CFunction
    private static native int waitpid(int pid, CIntPointer status, int options);

    /** Reaps {@code pid} if it has exited; true when it was reaped. */
    static boolean reap(int pid) {
        CIntPointer status = StackValue.get(CIntPointer.class);
        return waitpid(pid, status, WNOHANG) == pid;
    }
}
