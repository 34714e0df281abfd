package dev.sidecarwait.sockets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parser, on lines captured from a real /proc/net/tcp and tcp6 (Linux 6.x), odd ones included. */
class ProcNetTcpTest {

    private static final String TCP = String.join("\n",
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     ",
            "   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1223 1 0000000092d38c15 100 0 0 10 0                      ",
            "   1: 0100007F:94C0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 13352 1 00000000620a9076 100 0 0 10 0                     ",
            "   2: 0100007F:94C0 0100007F:8308 01 00000000:00000000 00:00000000 00000000     0        0 13356 1 000000008da80071 20 0 0 10 -1                     ",
            "   3: 0100007F:94C0 0100007F:8310 08 00000000:00000001 00:00000000 00000000     0        0 13360 1 00000000c1587697 20 4 0 10 -1                     ",
            "   5: 0100007F:8310 0100007F:94C0 05 00000000:00000000 03:0000175C 00000000     0        0 0 3 000000009b7ff4a5                                      ",
            "");
    private static final String TCP6 = String.join("\n",
            "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 00000000000000000000000000000000:94C2 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 13354 1 00000000262e06c5 100 0 0 10 0",
            "   1: 00000000000000000000000001000000:94C1 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 13353 1 00000000adb624cc 100 0 0 10 0",
            "   2: 0000000000000000FFFF00000100007F:61BC 0000000000000000FFFF00000100007F:CDA6 06 00000000:00000000 03:00000726 00000000     0        0 0 3 0000000057ebaf78",
            "  23: 00000000000000000000000001000000:9D2E 00000000000000000000000001000000:94C1 01 00000000:00000000 00:00000000 00000000     0        0 13357 2 0000000001b4b4f2 20 0 0 10 -1",
            "");

    @Test
    void readsBothFilesOfACapturedTable(@TempDir Path proc) throws Exception {
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/tcp"), TCP);
        Files.writeString(proc.resolve("net/tcp6"), TCP6);
        List<TcpTableRow> sockets = new ProcNetTcp(proc).read();
        assertEquals(9, sockets.size());
        assertEquals(new TcpTableRow("0.0.0.0", 2024, "0.0.0.0", 0, TcpState.LISTEN, 1223, 0), sockets.get(0));
        assertEquals(new TcpTableRow("127.0.0.1", 38080, "127.0.0.1", 33544, TcpState.ESTABLISHED, 13356, 0), sockets.get(2));
        assertEquals(TcpState.CLOSE_WAIT, sockets.get(3).state());
        assertEquals(new TcpTableRow("127.0.0.1", 33552, "127.0.0.1", 38080, TcpState.FIN_WAIT2, 0, 0), sockets.get(4));
        assertEquals(new TcpTableRow("::", 38082, "::", 0, TcpState.LISTEN, 13354, 0), sockets.get(5));
        assertEquals(new TcpTableRow("::1", 38081, "::", 0, TcpState.LISTEN, 13353, 0), sockets.get(6));
        assertEquals(new TcpTableRow("::ffff:127.0.0.1", 25020, "::ffff:127.0.0.1", 52646, TcpState.TIME_WAIT, 0, 0), sockets.get(7));
        assertEquals("[::1]:40238", sockets.get(8).local());
    }

    @Test
    void aKernelWithoutIpv6HasNoTcp6(@TempDir Path proc) throws Exception {
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/tcp"), TCP);
        assertEquals(5, new ProcNetTcp(proc).read().size());
    }

    @Test
    void skipsWhatIsNotASocketLine() {
        assertNull(ProcNetTcp.parse(""));
        assertNull(ProcNetTcp.parse("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"));
        assertNull(ProcNetTcp.parse("   0: 0100007F94C0 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 1 1"));
        assertNull(ProcNetTcp.parse("   0: ZZZZZZZZ:94C0 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 1 1"));
        assertNull(ProcNetTcp.parse("   0: 0100007F:94C0 00000000:0000 0A"));
    }

    @Test
    void unknownStatesAreKeptAsUnknown() {
        TcpTableRow socket = ProcNetTcp.parse("   0: 0100007F:0050 00000000:0000 FF 00000000:00000000 00:00000000 00000000 0 0 7 1");
        assertEquals(TcpState.UNKNOWN, socket.state());
        assertEquals(TcpState.NEW_SYN_RECV, ProcNetTcp.parse("   0: 0100007F:0050 00000000:0000 0C 0:0 0:0 0 0 0 7 1").state());
    }

    @Test
    void decodesAddressesWordByWord() {
        assertEquals("10.1.2.3", ProcNetTcp.address("0302010A"));
        assertEquals("fe80::1c2:3ff:fe04:506", ProcNetTcp.address("000080FE00000000FF03C201060504FE"));
        assertEquals("2001:db8::1", ProcNetTcp.address("B80D0120000000000000000001000000"));
        assertEquals("1:0:0:1::", ProcNetTcp.address("00000100010000000000000000000000"));
    }
}
