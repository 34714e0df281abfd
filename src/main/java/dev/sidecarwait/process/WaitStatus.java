package dev.sidecarwait.process;

/** A child's end as waitpid(2) reports it, as the JDK's Process and a shell give it: its exit code, or 128+N for signal N. */
final class WaitStatus {

    private WaitStatus() {
    }

    /** WEXITSTATUS when it exited (WIFEXITED), 128 + WTERMSIG when a signal ended it; -1 for a stop or a continue. */
    static int exitCode(int status) {
        int signal = status & 0x7f;
        if (signal == 0) {
            return (status >> 8) & 0xff;
        }
        return signal != 0x7f && (status & 0xffff) != 0xffff ? 128 + signal : -1;
    }
}
