package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The number each forwarded signal is taken by in the native binary (a C handler per number, process/Inbox.java),
 * decided on the JVM: Linux's, as bash's kill -l gives it on this machine.
 */
class ForwardedSignalsTest {

    @Test
    void everyForwardedSignalHasLinuxsNumber() throws Exception {
        List<String> script = new ArrayList<>();
        for (String name : ForwardedSignals.NAMES) {
            script.add("kill -l " + name);
        }
        Process kill = new ProcessBuilder("bash", "-c", String.join("; ", script)).start();
        List<String> numbers = new String(kill.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        assertEquals(0, kill.waitFor());
        List<Integer> expected = numbers.stream().map(Integer::parseInt).toList();
        assertEquals(expected, ForwardedSignals.NAMES.stream().map(ForwardedSignals::number).toList());
        assertEquals(-1, ForwardedSignals.number("NOSUCHSIGNAL"));
    }
}
