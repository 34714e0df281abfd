package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The parent PID from /proc/PID/stat, whatever the command name holds; the real chains are in PostStartGuardTest. */
class ParentChainTest {

    @Test
    void theParentIsCountedFromTheLastParenthesis() throws IOException {
        assertEquals(1, ParentChain.parentPid("42 (sidecar-wait) S 1 42 42 0 -1 4194560 ..."));
        assertEquals(0, ParentChain.parentPid("7 (sh) S 0 7 7 0 -1 ..."));
        assertEquals(31, ParentChain.parentPid("57 (a) b (c) R 31 57 1 0 -1 ..."));
    }

    @Test
    void aLineThatIsNotAStatLineIsSaidInWords() {
        assertThrows(IOException.class, () -> ParentChain.parentPid("no parenthesis here"));
        assertThrows(IOException.class, () -> ParentChain.parentPid("1 (x) S notanumber"));
    }

    @Test
    void thisJvmDescendsFromItsNamespacesFirstProcess() throws IOException {
        long top = new ParentChain(Path.of("/proc")).top();
        assertEquals(0, ParentChain.parentPid(java.nio.file.Files.readString(Path.of("/proc", Long.toString(top), "stat"))));
    }
}
