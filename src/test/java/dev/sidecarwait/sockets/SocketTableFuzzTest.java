package dev.sidecarwait.sockets;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The kernel's socket tables (/proc/net/tcp and tcp6), as drain and --mesh auto read them: for any input, a
 * socket or nothing (a line that is not a socket's); never an exception. Seeds: lines of this machine's tables.
 */
class SocketTableFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void procNetTcp(byte[] input) {
        for (String line : new String(input, StandardCharsets.US_ASCII).split("\n")) {
            TcpTableRow socket = ProcNetTcp.parse(line);
            if (socket != null && (socket.localAddress() == null || socket.state() == null)) {
                throw new AssertionError("a socket without an address or a state: " + socket);
            }
        }
    }
}
