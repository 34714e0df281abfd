package dev.sidecarwait.sockets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The TCP sockets of this network namespace, from /proc/net/tcp and /proc/net/tcp6: every container of a pod
 * shares one namespace, so any container sees the whole pod's sockets without netstat.
 */
public final class ProcNetTcp {

    private final Path proc;

    public ProcNetTcp(Path proc) {
        this.proc = proc;
    }

    public List<TcpTableRow> read() throws IOException {
        List<TcpTableRow> sockets = new ArrayList<>();
        for (String file : List.of("net/tcp", "net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(proc.resolve(file), StandardCharsets.US_ASCII);
            } catch (NoSuchFileException noIpv6) {
                continue; // a kernel without IPv6 has no tcp6
            }
            for (String line : lines) {
                TcpTableRow socket = parse(line);
                if (socket != null) {
                    sockets.add(socket);
                }
            }
        }
        return sockets;
    }

    /**
     * "  1: 0100007F:94C0 00000000:0000 0A 00000000:00000000 00:00000000 00000000  0  0 13352 1 ...":
     * slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode. Null for the header and
     * anything that is not a socket line.
     */
    static TcpTableRow parse(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !f[0].endsWith(":")) {
            return null;
        }
        try {
            int localColon = f[1].indexOf(':');
            int remoteColon = f[2].indexOf(':');
            if (localColon < 0 || remoteColon < 0) {
                return null;
            }
            return new TcpTableRow(address(f[1].substring(0, localColon)), Integer.parseInt(f[1].substring(localColon + 1), 16),
                    address(f[2].substring(0, remoteColon)), Integer.parseInt(f[2].substring(remoteColon + 1), 16),
                    TcpState.ofCode(Integer.parseInt(f[3], 16)), Long.parseLong(f[9]), Integer.parseInt(f[7]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The kernel prints each 32-bit word of the address in host (little-endian) byte order. */
    static String address(String hex) {
        if (hex.length() == 8) {
            long word = Long.parseLong(hex, 16);
            return (word & 0xff) + "." + (word >> 8 & 0xff) + "." + (word >> 16 & 0xff) + "." + (word >> 24 & 0xff);
        }
        if (hex.length() != 32) {
            throw new NumberFormatException("address " + hex);
        }
        int[] groups = new int[8];
        for (int w = 0; w < 4; w++) {
            long word = Long.parseLong(hex.substring(w * 8, w * 8 + 8), 16);
            long swapped = (word & 0xff) << 24 | (word >> 8 & 0xff) << 16 | (word >> 16 & 0xff) << 8 | (word >> 24 & 0xff);
            groups[w * 2] = (int) (swapped >> 16);
            groups[w * 2 + 1] = (int) (swapped & 0xffff);
        }
        if (groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0 && groups[5] == 0xffff) {
            return "::ffff:" + (groups[6] >> 8) + "." + (groups[6] & 0xff) + "." + (groups[7] >> 8) + "." + (groups[7] & 0xff);
        }
        return Ipv6Text.of(groups);
    }
}
