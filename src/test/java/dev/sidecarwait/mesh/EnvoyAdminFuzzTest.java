package dev.sidecarwait.mesh;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/** What Envoy's admin API answers, as wait, check and drain read it: any input gives an answer, never an exception. */
class EnvoyAdminFuzzTest {

    /**
     * /server_info's state and /stats' counts, and the explanation made of them; the input is the /server_info
     * body, a NUL, the /stats body.
     */
    @FuzzTest(maxDuration = "15s")
    void envoyAdminAnswer(byte[] input) {
        String[] bodies = new String(input, StandardCharsets.UTF_8).split("\0", 2);
        String serverInfo = bodies[0];
        String stats = bodies.length > 1 ? bodies[1] : "";
        String state = EnvoyAdmin.state(serverInfo);
        Map<String, Long> counts = EnvoyAdmin.stats(stats);
        if (EnvoyAdmin.explain(state, counts).isBlank()) {
            throw new AssertionError("an explanation that says nothing");
        }
    }

    /** /stats text, summed per listener as drain --source envoy does. */
    @FuzzTest(maxDuration = "15s")
    void envoyConnectionStats(byte[] input) {
        Map<String, Long> counts = EnvoyListeners.activeConnections(new String(input, StandardCharsets.UTF_8), Set.of(15021, 15090));
        for (String listener : counts.keySet()) {
            if (listener.startsWith("admin") || listener.contains(".worker_")) {
                throw new AssertionError("counted a listener that carries no application traffic: " + listener);
            }
        }
    }
}
