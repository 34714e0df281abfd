package dev.sidecarwait.process;

import dev.sidecarwait.output.Log;
import java.io.IOException;
import java.util.List;
import org.graalvm.nativeimage.StackValue;
import org.graalvm.nativeimage.UnmanagedMemory;
import org.graalvm.nativeimage.c.function.CFunction;
import org.graalvm.nativeimage.c.function.CLibrary;
import org.graalvm.nativeimage.c.struct.SizeOf;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.nativeimage.c.type.CCharPointerPointer;
import org.graalvm.nativeimage.c.type.CIntPointer;

/**
 * The supervised command's process in the native binary: started with posix_spawn(3) (native/c/swprocess/supervise.c),
 * reaped with waitpid(2) when SIGCHLD comes, by the thread that supervises, where the JDK's Process keeps a thread of
 * its own waiting for each child. As PID 1 the same waitpid reaps every orphan the container's processes leave. Never
 * loaded on the JVM (callers check {@link NativeImage#RUNTIME}).
 */
@CLibrary("swprocess")
final class NativeChild {

    private static final int WNOHANG = 1;

    private NativeChild() {
    }

    @CFunction
    private static native int swprocess_spawn(CIntPointer pid, CCharPointer path, CCharPointerPointer argv, CIntPointer close,
            int count);

    @CFunction
    private static native int waitpid(int pid, CIntPointer status, int options);

    /** Starts {@code file} with these arguments and this process's environment, each of {@code close} closed in it: its pid. */
    static long start(byte[] file, List<byte[]> argv, int[] close) throws IOException {
        CCharPointerPointer args = UnmanagedMemory.calloc((argv.size() + 1) * SizeOf.get(CCharPointerPointer.class));
        CIntPointer descriptors = UnmanagedMemory.calloc(Math.max(1, close.length) * SizeOf.get(CIntPointer.class));
        try {
            for (int i = 0; i < argv.size(); i++) {
                args.write(i, Libc.cString(argv.get(i)));
            }
            for (int i = 0; i < close.length; i++) {
                descriptors.write(i, close[i]);
            }
            CCharPointer path = Libc.cString(file);
            CIntPointer pid = StackValue.get(CIntPointer.class);
            int error = swprocess_spawn(pid, path, args, descriptors, close.length);
            UnmanagedMemory.free(path);
            if (error != 0) {
                throw new IOException("posix_spawn failed (errno " + error + ")");
            }
            return pid.read();
        } finally {
            for (int i = 0; i < argv.size(); i++) {
                UnmanagedMemory.free(args.read(i));
            }
            UnmanagedMemory.free(args);
            UnmanagedMemory.free(descriptors);
        }
    }

    /**
     * Reaps every child that has ended: the exit code of {@code command} when it is among them ({@link WaitStatus}),
     * else -1. Any other (an orphan, as PID 1) is said at debug.
     */
    static int reap(long command, Log log) {
        CIntPointer status = StackValue.get(CIntPointer.class);
        int exited = -1;
        int pid;
        while ((pid = waitpid(-1, status, WNOHANG)) > 0) {
            if (pid == command) {
                exited = WaitStatus.exitCode(status.read());
            } else {
                log.debug("Reaped orphaned process " + pid);
            }
        }
        return exited;
    }
}
