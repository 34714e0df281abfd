package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** waitpid's status as the supervisor reports a native child's end, against what the JDK reports for the same ends. */
class WaitStatusTest {

    /** As Linux encodes them (the kernel's wait.h): exit code in bits 8 to 15, the ending signal in bits 0 to 6. */
    @Test
    void exitedAndSignalledAsTheJdkAndAShellSayIt() {
        assertEquals(0, WaitStatus.exitCode(0));
        assertEquals(3, WaitStatus.exitCode(3 << 8));
        assertEquals(255, WaitStatus.exitCode(255 << 8));
        assertEquals(128 + 15, WaitStatus.exitCode(15));
        assertEquals(128 + 9, WaitStatus.exitCode(9));
        assertEquals(128 + 6, WaitStatus.exitCode(6 | 0x80), "with a core dump");
        assertEquals(-1, WaitStatus.exitCode((19 << 8) | 0x7f), "stopped by SIGSTOP");
        assertEquals(-1, WaitStatus.exitCode(0xffff), "continued");
    }

    /** The same ends of real processes, as the JDK's Process reports them: what the JVM's supervisor says. */
    @Test
    void theJdkReportsTheSameForRealChildren() throws Exception {
        assertEquals(WaitStatus.exitCode(3 << 8), new ProcessBuilder("sh", "-c", "exit 3").start().waitFor());
        assertEquals(WaitStatus.exitCode(15), new ProcessBuilder("sh", "-c", "kill -TERM $$").start().waitFor());
        assertEquals(WaitStatus.exitCode(9), new ProcessBuilder("sh", "-c", "kill -KILL $$").start().waitFor());
    }
}
