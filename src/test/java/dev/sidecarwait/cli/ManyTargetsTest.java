package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many targets at once, over real sockets: listeners that accept every connection and never say a word (a mesh proxy
 * with no upstream), probed as Redis, so each probe holds its connection for the whole request timeout. Before each
 * target had its own schedule, twenty of them with --timeout 3s --request-timeout 500ms left thirteen never probed
 * (MEASURED.md, build of 92498e8).
 */
class ManyTargetsTest {

    private final List<ServerSocket> listeners = new ArrayList<>();
    private final List<Socket> held = new ArrayList<>();

    /** A port that accepts every connection and holds it, silent. */
    private int silent() throws IOException {
        ServerSocket listener = new ServerSocket(0, 100, InetAddress.getByName("127.0.0.1"));
        listeners.add(listener);
        Thread accepting = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket socket = listener.accept();
                    synchronized (held) {
                        held.add(socket);
                    }
                } catch (IOException closed) {
                    return;
                }
            }
        });
        accepting.setDaemon(true);
        accepting.start();
        return listener.getLocalPort();
    }

    @AfterEach
    void close() throws IOException {
        for (ServerSocket listener : listeners) {
            listener.close();
        }
        synchronized (held) {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void twentyTargetsThatHoldEveryConnectionAreAllProbedFromTheStart() throws IOException {
        List<String> args = new ArrayList<>(List.of("wait", "--timeout", "3s", "--request-timeout", "500ms"));
        for (int i = 0; i < 20; i++) {
            args.addAll(List.of("--url", "redis://127.0.0.1:" + silent()));
        }
        CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"), args.toArray(String[]::new));
        assertEquals(1, run.exit(), run.err());
        String summary = run.err().lines().reduce((first, second) -> second).orElse("");
        Matcher attempts = Pattern.compile("redis://127\\.0\\.0\\.1:\\d+ (\\d+)[,;]").matcher(summary.substring(0,
                summary.indexOf("; not ready: ")) + ";");
        int targets = 0;
        while (attempts.find()) {
            targets++;
            // 3 s of 500 ms requests back to back: 6; a loaded machine may start one late
            assertTrue(Integer.parseInt(attempts.group(1)) >= 4, "probed " + attempts.group(1) + " times: " + summary);
        }
        assertEquals(20, targets, summary);
    }

    @Test
    void oneTargetThatHoldsLeavesTheOthersReadyAtTheirFirstProbe() throws IOException {
        String slow = "redis://127.0.0.1:" + silent();
        List<String> args = new ArrayList<>(List.of("wait", "--timeout", "2s", "--request-timeout", "500ms", "--url", slow));
        for (int i = 0; i < 19; i++) {
            args.addAll(List.of("--url", "tcp://127.0.0.1:" + silent()));
        }
        CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"), args.toArray(String[]::new));
        assertEquals(1, run.exit(), run.err());
        String summary = run.err().lines().reduce((first, second) -> second).orElse("");
        assertEquals(19, Pattern.compile("tcp://127\\.0\\.0\\.1:\\d+ 1[,;]").matcher(summary).results().count(), summary);
        assertTrue(summary.endsWith("; not ready: " + slow + ": connection closed before the server spoke (a proxy with no "
                + "upstream?); exit code 1") || summary.contains("; not ready: " + slow + ": request timed out after 500 ms")
                || summary.contains("; not ready: " + slow + ": no answer before the overall timeout"), summary);
    }
}
