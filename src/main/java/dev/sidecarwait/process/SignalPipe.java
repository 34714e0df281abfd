package dev.sidecarwait.process;

import org.graalvm.nativeimage.StackValue;
import org.graalvm.nativeimage.c.function.CFunction;
import org.graalvm.nativeimage.c.function.CLibrary;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.nativeimage.c.type.CIntPointer;
import org.graalvm.word.PointerBase;

/**
 * Signals as bytes on a pipe, in the native binary: the C handler (native/c/swprocess/supervise.c) writes a caught
 * signal's number, {@link #wake} a 0, and the thread that supervises reads them. Never loaded on the JVM (callers check
 * {@link NativeImage#RUNTIME}).
 */
@CLibrary("swprocess")
final class SignalPipe {

    /** Linux's, the same on amd64 and arm64. */
    private static final int O_CLOEXEC = 0x80000;
    private static final int O_NONBLOCK = 0x800;
    private static final int POLLIN = 1;

    private final int readEnd;
    private final int writeEnd;

    private SignalPipe(int readEnd, int writeEnd) {
        this.readEnd = readEnd;
        this.writeEnd = writeEnd;
    }

    @CFunction
    private static native int swprocess_catch(int fd, int signal);

    @CFunction
    private static native int pipe2(CIntPointer fds, int flags);

    @CFunction
    private static native int poll(PointerBase fds, long count, int timeoutMillis);

    @CFunction
    private static native long read(int fd, PointerBase buffer, long count);

    @CFunction
    private static native long write(int fd, PointerBase buffer, long count);

    /** Both ends close at exec (a hand-over, the command's start) and never block a writer. */
    static SignalPipe open() {
        CIntPointer fds = StackValue.get(2, CIntPointer.class);
        if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
            throw new IllegalStateException("pipe2 failed: the wrapper cannot take signals");
        }
        return new SignalPipe(fds.read(0), fds.read(1));
    }

    /** Whether {@code signal} now comes through the pipe: false for one the C library keeps (musl: 32 to 34). */
    boolean take(int signal) {
        return swprocess_catch(writeEnd, signal) == 0;
    }

    /** A 0 on the pipe: something else is in the supervisor's queue. From any thread. */
    void wake() {
        CCharPointer zero = StackValue.get(CCharPointer.class);
        zero.write((byte) 0);
        write(writeEnd, zero, 1);
    }

    /**
     * The next byte: a signal's number, or 0 for a wake; -1 when none came within {@code millis} (-1: no limit) or a
     * signal interrupted the wait (its byte is read next).
     */
    int next(int millis) {
        CIntPointer pollfd = StackValue.get(2, CIntPointer.class); // struct pollfd: int fd; short events, revents
        pollfd.write(0, readEnd);
        pollfd.write(1, POLLIN); // events = POLLIN, revents = 0 (little-endian on both architectures)
        if (poll(pollfd, 1, millis) <= 0) {
            return -1;
        }
        CCharPointer one = StackValue.get(CCharPointer.class);
        return read(readEnd, one, 1) == 1 ? one.read() & 0xff : -1;
    }
}
