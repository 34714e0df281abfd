package dev.sidecarwait.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpTableRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signatures, read from socket tables in the kernel's own format; the real namespaces are in DataPlaneModesTest. */
class DetectionTest {

    @TempDir
    Path proc;

    /** A /proc/net/tcp6 with these sockets, as the kernel prints them: listeners on [::], one connection. */
    private List<TcpTableRow> table(int connectedPort, int... listening) throws IOException {
        StringBuilder tcp6 = new StringBuilder("  sl  local_address                         remote_address                        st\n");
        int slot = 0;
        for (int port : listening) {
            tcp6.append(String.format("%4d: 00000000000000000000000000000000:%04X 00000000000000000000000000000000:0000 0A "
                    + "00000000:00000000 00:00000000 00000000  1337        0 %d 1 0000000000000000 100 0 0 10 0%n", slot++, port, 1000 + port));
        }
        tcp6.append(String.format("%4d: 0000000000000000FFFF00000100007F:%04X 0000000000000000FFFF00000100007F:D431 01 "
                + "00000000:00000000 00:00000000 00000000  1337        0 7 1 0000000000000000 20 4 30 10 -1%n", slot, connectedPort));
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/tcp"), "  sl  local_address rem_address   st\n");
        Files.writeString(proc.resolve("net/tcp6"), tcp6.toString());
        return new ProcNetTcp(proc).read();
    }

    @Test
    void anIstioSidecarComesBeforeAmbientThoughItsEnvoyListensOn15001And15006() throws IOException {
        Detection found = Detection.of(table(9999, 15001, 15006, 15021));
        assertEquals(Mesh.ISTIO, found.mesh());
        assertEquals("Istio sidecar (listening: 15021)", found.describe());
    }

    @Test
    void ztunnelsListenersAloneAreAmbientEvenOneOfThem() throws IOException {
        assertEquals(Mesh.AMBIENT, Detection.of(table(9999, 15001, 15006, 15008)).mesh());
        assertEquals(List.of(15008), Detection.of(table(9999, 15008)).ports());
    }

    @Test
    void linkerdIsItsAdminOrEitherProxyPort() throws IOException {
        assertEquals(Mesh.LINKERD, Detection.of(table(9999, 4143)).mesh());
    }

    @Test
    void onlyListenersCountNotAConnectionOnAMeshPortNorOtherPorts() throws IOException {
        Detection none = Detection.of(table(15020, 8080, 5432));
        assertTrue(none.none(), none.describe());
        assertTrue(none.describe().startsWith("no mesh (nothing listens on 4140, 4143, 4191, 15000, 15001, "), none.describe());
    }
}
