package dev.sidecarwait.process;

import java.io.IOException;

/** Sends a signal to a child process. The JDK can only send TERM and KILL; other signals need kill(2). */
public interface ChildSignaller {

    void send(long child, String name, int number) throws IOException;

    /** kill(2) itself inside a native image; the JDK plus the kill command on the JVM. */
    static ChildSignaller forThisRuntime() {
        return NativeImage.RUNTIME ? new NativeSignaller() : new JvmSignaller();
    }

    /** On the JVM: TERM through the JDK, the others through the kill command. */
    final class JvmSignaller implements ChildSignaller {
        @Override
        public void send(long child, String name, int number) throws IOException {
            if (name.equals("TERM")) {
                ProcessHandle.of(child).ifPresent(ProcessHandle::destroy);
                return;
            }
            Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(child))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                if (kill.waitFor() != 0) {
                    throw new IOException("kill -s " + name + " " + child + " failed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while sending SIG" + name);
            }
        }
    }

    /** In a native image: kill(2) directly, so forwarding needs no kill command in the container. */
    final class NativeSignaller implements ChildSignaller {
        @Override
        public void send(long child, String name, int number) throws IOException {
            if (Libc.kill((int) child, number) != 0) {
                throw new IOException("kill(" + child + ", SIG" + name + ") failed");
            }
        }
    }
}
