package dev.sidecarwait.process;

import java.io.IOException;

/** Sends a signal to a child process. The JDK can only send TERM and KILL; other signals need kill(2). */
public interface ChildSignaller {

    void send(Process child, String name, int number) throws IOException;

    /** kill(2) itself inside a native image; the JDK plus the kill command on the JVM. */
    static ChildSignaller forThisRuntime() {
        return NativeImage.RUNTIME ? new NativeSignaller() : new JvmSignaller();
    }

    /** On the JVM: TERM through the JDK, the others through the kill command. */
    final class JvmSignaller implements ChildSignaller {
        @Override
        public void send(Process child, String name, int number) throws IOException {
            if (name.equals("TERM")) {
                child.destroy();
                return;
            }
            Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(child.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                if (kill.waitFor() != 0) {
                    throw new IOException("kill -s " + name + " " + child.pid() + " failed");
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
        public void send(Process child, String name, int number) throws IOException {
            if (Libc.kill((int) child.pid(), number) != 0) {
                throw new IOException("kill(" + child.pid() + ", SIG" + name + ") failed");
            }
        }
    }
}
