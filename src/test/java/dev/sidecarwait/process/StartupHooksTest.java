package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The native image's start: what the process inherited is read first, then the runtime's start-up hooks run, once,
 * and only in the native image (with -H:-ParseRuntimeOptions GraalVM leaves them to main; without them SIGPIPE kills
 * the binary, MEASURED.md of 92498e8). The call itself, VMRuntime.initialize(), can only run in the image.
 */
class StartupHooksTest {

    private final List<String> steps = new ArrayList<>();
    private final ProcessReplacer inheritedRead = HandoverTest.replacer(new Inherited(0, 0, Set.of(0, 1, 2), null));

    private ThisProcess detect(boolean nativeImage, boolean commandMayFollow) {
        return ThisProcess.detect(nativeImage, commandMayFollow, () -> {
            steps.add("inherited read");
            return inheritedRead;
        }, () -> steps.add("start-up hooks"));
    }

    @Test
    void inTheNativeImageTheHooksRunOnceAfterTheInheritedStateIsRead() {
        ThisProcess self = detect(true, true);
        assertEquals(List.of("inherited read", "start-up hooks"), steps);
        assertSame(inheritedRead, self.replacer());
    }

    @Test
    void withNoCommandToFollowTheHooksRunAllTheSame() {
        ThisProcess self = detect(true, false);
        assertEquals(List.of("start-up hooks"), steps);
        assertNull(self.replacer());
    }

    @Test
    void onTheJvmNeitherRuns() {
        assertSame(ThisProcess.JVM, detect(false, true));
        assertEquals(List.of(), steps);
        assertSame(ThisProcess.JVM, ThisProcess.detect(true), "this JVM is not the native image");
    }

    @Test
    void theNativeCallIsTheRuntimesInitialize() throws IOException {
        try (InputStream in = StartupHooks.class.getResourceAsStream("StartupHooks.class")) {
            String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(bytes.contains("org/graalvm/nativeimage/VMRuntime") && bytes.contains("initialize"),
                    "StartupHooks.run calls org.graalvm.nativeimage.VMRuntime.initialize()");
        }
    }
}
