package dev.sidecarwait.drain;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * What drain reads: the kernel's socket tables (/proc/net/tcp and tcp6) and Envoy's /stats text. For any input,
 * a reading or nothing (a line that is not a socket's); never an exception. Seeds: lines of this machine's own
 * tables, and Envoy's /stats layout.
 */
class ProcReadersFuzzTest {

    /** Each line of /proc/net/tcp or tcp6, as the drain reads them. */
    @FuzzTest(maxDuration = "15s")
    void procNetTcp(byte[] input) {
        for (String line : new String(input, StandardCharsets.US_ASCII).split("\n")) {
            TcpSocket socket = ProcNetTcp.parse(line);
            if (socket != null && (socket.localAddress() == null || socket.state() == null)) {
                throw new AssertionError("a socket without an address or a state: " + socket);
            }
        }
    }

    /** Envoy's /stats text, summed per listener as drain --source envoy does. */
    @FuzzTest(maxDuration = "15s")
    void envoyConnectionStats(byte[] input) {
        Map<String, Long> counts = EnvoyConnections.parse(new String(input, StandardCharsets.UTF_8), Set.of(15021, 15090));
        for (String listener : counts.keySet()) {
            if (listener.startsWith("admin") || listener.contains(".worker_")) {
                throw new AssertionError("counted a listener that carries no application traffic: " + listener);
            }
        }
    }
}
