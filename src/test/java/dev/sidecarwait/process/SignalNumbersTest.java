package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbers against bash's kill -l, which names signals as Linux, the container runtimes and Kubernetes do. */
class SignalNumbersTest {

    private static int killL(String name) throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", "kill -l \"$0\"", name).redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, bash.waitFor(), "kill -l " + name + ": " + out);
        return Integer.parseInt(out);
    }

    @Test
    void everyRealTimeSignalAndStkfltAsKillNamesThem() throws Exception {
        List<String> names = new ArrayList<>(SignalNumbers.realTime());
        names.add("STKFLT");
        for (String name : names) {
            assertEquals(killL(name), SignalNumbers.of(name), name);
        }
        assertEquals(31, SignalNumbers.realTime().size(), "RTMIN to RTMIN+15, RTMAX-14 to RTMAX, as Kubernetes lists them");
        assertEquals(64, SignalNumbers.of("RTMAX"));
    }

    @Test
    void anythingElseIsNone() {
        for (String name : List.of("TERM", "RTMIN+0", "RTMIN+16", "RTMAX-15", "RTMAX-0", "RTMIN+x",
                "RTMIN+", "rtmin", "SIGRTMIN", "RTMIN+003")) {
            assertEquals(-1, SignalNumbers.of(name), name);
        }
    }
}
