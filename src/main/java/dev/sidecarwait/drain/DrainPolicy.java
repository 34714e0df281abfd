package dev.sidecarwait.drain;

import dev.sidecarwait.sockets.TcpTableRow;
import dev.sidecarwait.sockets.TcpState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which sockets still hold the pod open.
 * <ul>
 *   <li>Without ports: every listening socket, except the proxy's own.</li>
 *   <li>With ports: listening sockets and established connections whose local port is one of them.</li>
 * </ul>
 * A socket never counts when its owner process is seen and named in {@code excludeProcesses}; when the owner
 * cannot be seen (another container's process) and its local port is one of {@code meshPorts}; or when its
 * port is one of {@code excludePorts}, which the user named explicitly, whoever holds it. With ports given,
 * only the process names apply: the ports named are watched.
 */
public final class DrainPolicy {

    /** What is still open on one local port: how many listening sockets and connections, and who holds them. */
    public record Open(int port, int listening, int established, Set<String> holders) {

        @Override
        public String toString() {
            List<String> parts = new ArrayList<>();
            if (listening > 0) {
                parts.add("LISTEN");
            }
            if (established > 0) {
                parts.add(established + " ESTABLISHED");
            }
            return "port " + port + " " + String.join(" + ", parts) + (holders.isEmpty() ? "" : " (" + String.join(", ", holders) + ")");
        }
    }

    private final Set<Integer> ports;
    private final Set<String> excludeProcesses;
    private final Set<Integer> meshPorts;
    private final Set<Integer> excludePorts;

    public DrainPolicy(Set<Integer> ports, Set<String> excludeProcesses, Set<Integer> meshPorts, Set<Integer> excludePorts) {
        this.ports = Set.copyOf(ports);
        this.excludeProcesses = Set.copyOf(excludeProcesses);
        this.meshPorts = Set.copyOf(meshPorts);
        this.excludePorts = Set.copyOf(excludePorts);
    }

    /** The sockets worth asking an owner for: those this policy might count. */
    public Set<Long> candidates(List<TcpTableRow> sockets) {
        Set<Long> inodes = new HashSet<>();
        for (TcpTableRow socket : sockets) {
            boolean excludedWhoeverHoldsIt = ports.isEmpty() && excludePorts.contains(socket.localPort());
            if (counts(socket) && !excludedWhoeverHoldsIt && socket.inode() != 0) {
                inodes.add(socket.inode());
            }
        }
        return inodes;
    }

    /** What is still open, by local port in the order first seen. */
    public List<Open> stillOpen(List<TcpTableRow> sockets, Map<Long, SocketOwners.Owner> owners) {
        Map<Integer, int[]> counts = new LinkedHashMap<>();
        Map<Integer, Set<String>> holders = new LinkedHashMap<>();
        for (TcpTableRow socket : sockets) {
            if (!counts(socket)) {
                continue;
            }
            SocketOwners.Owner owner = owners.get(socket.inode());
            if (owner != null ? excludeProcesses.contains(owner.name()) || excludedByPort(socket, true)
                    : excludedByPort(socket, false)) {
                continue;
            }
            int[] count = counts.computeIfAbsent(socket.localPort(), port -> new int[2]);
            count[socket.state() == TcpState.LISTEN ? 0 : 1]++;
            if (owner != null || socket.uid() >= 0) {
                // Another user's process is not ours to see (/proc/PID/fd), nor one of another container without
                // shareProcessNamespace: the socket table still says whose socket it is.
                holders.computeIfAbsent(socket.localPort(), port -> new java.util.TreeSet<>())
                        .add(owner != null ? owner.name() + " pid " + owner.pid()
                                : "a process of uid " + socket.uid() + " not visible here");
            }
        }
        List<Open> open = new ArrayList<>();
        counts.forEach((port, count) -> open.add(new Open(port, count[0], count[1], holders.getOrDefault(port, Set.of()))));
        return open;
    }

    /**
     * Who holds sockets that would count but for their owner's name being excluded ("envoy pid 12"), sorted: a
     * drain that ends while only they hold the ports says so, rather than that nothing does.
     */
    public Set<String> excludedHolders(List<TcpTableRow> sockets, Map<Long, SocketOwners.Owner> owners) {
        Set<String> holders = new java.util.TreeSet<>();
        for (TcpTableRow socket : sockets) {
            SocketOwners.Owner owner = owners.get(socket.inode());
            if (counts(socket) && owner != null && excludeProcesses.contains(owner.name())) {
                holders.add(owner.name() + " pid " + owner.pid());
            }
        }
        return holders;
    }

    private boolean excludedByPort(TcpTableRow socket, boolean ownerSeen) {
        if (!ports.isEmpty()) {
            return false;
        }
        return excludePorts.contains(socket.localPort()) || !ownerSeen && meshPorts.contains(socket.localPort());
    }

    private boolean counts(TcpTableRow socket) {
        if (ports.isEmpty()) {
            return socket.state() == TcpState.LISTEN;
        }
        return ports.contains(socket.localPort())
                && (socket.state() == TcpState.LISTEN || socket.state() == TcpState.ESTABLISHED);
    }
}
