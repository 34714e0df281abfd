package dev.sidecarwait.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sidecarwait.sockets.TcpTableRow;
import dev.sidecarwait.sockets.TcpState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DrainPolicyTest {

    private static final Set<String> PROXY = Set.of("envoy", "pilot-agent");
    private static final Set<Integer> MESH_PORTS = Set.of(15000, 15001, 15004, 15006, 15008, 15009, 15020, 15021, 15053, 15090);

    private static TcpTableRow listen(int port, long inode) {
        return new TcpTableRow("0.0.0.0", port, "0.0.0.0", 0, TcpState.LISTEN, inode);
    }

    private static TcpTableRow connection(int localPort, int remotePort, TcpState state, long inode) {
        return new TcpTableRow("127.0.0.1", localPort, "127.0.0.6", remotePort, state, inode);
    }

    private final List<TcpTableRow> pod = List.of(
            listen(15001, 1), listen(15006, 2), listen(15021, 3),   // Envoy, owner not visible
            listen(15020, 4),                                        // pilot-agent, visible
            listen(8080, 5),                                         // the app
            connection(8080, 40000, TcpState.ESTABLISHED, 6),        // the app's side of a request from Envoy
            connection(40000, 8080, TcpState.ESTABLISHED, 7),        // Envoy's side of it
            connection(8080, 40002, TcpState.TIME_WAIT, 0));
    private final Map<Long, SocketOwners.Owner> owners = Map.of(
            4L, new SocketOwners.Owner(10, "pilot-agent"),
            5L, new SocketOwners.Owner(20, "java"),
            6L, new SocketOwners.Owner(20, "java"));

    @Test
    void withoutPortsOnlyTheAppsListenersCount() {
        DrainPolicy policy = new DrainPolicy(Set.of(), PROXY, MESH_PORTS, Set.of());
        assertEquals(List.of(new DrainPolicy.Open(8080, 1, 0, Set.of("java pid 20"))), policy.stillOpen(pod, owners));
        assertEquals("port 8080 LISTEN (java pid 20)", policy.stillOpen(pod, owners).get(0).toString());
    }

    @Test
    void withPortsEstablishedConnectionsOnThemCountToo() {
        DrainPolicy policy = new DrainPolicy(Set.of(8080), PROXY, MESH_PORTS, Set.of());
        List<DrainPolicy.Open> open = policy.stillOpen(pod, owners);
        assertEquals(List.of(new DrainPolicy.Open(8080, 1, 1, Set.of("java pid 20"))), open);
        assertEquals("port 8080 LISTEN + 1 ESTABLISHED (java pid 20)", open.get(0).toString());

        List<TcpTableRow> listenerClosed = pod.stream().filter(s -> s.inode() != 5).toList();
        assertEquals(List.of(new DrainPolicy.Open(8080, 0, 1, Set.of("java pid 20"))), policy.stillOpen(listenerClosed, owners));
    }

    @Test
    void anOwnerThatCannotBeSeenIsNamedByItsUser() {
        // Another user's process (its /proc/PID/fd is not ours to read): the socket table still names the user.
        List<TcpTableRow> sockets = List.of(new TcpTableRow("0.0.0.0", 8080, "0.0.0.0", 0, TcpState.LISTEN, 5, 2000));
        assertEquals("port 8080 LISTEN (a process of uid 2000 not visible here)",
                new DrainPolicy(Set.of(8080), PROXY, MESH_PORTS, Set.of()).stillOpen(sockets, Map.of()).get(0).toString());
    }

    @Test
    void aVisibleOwnerDecidesOverThePort() {
        // Something that is not the proxy listening on a mesh port still holds the pod open.
        List<TcpTableRow> sockets = List.of(listen(15090, 9));
        Map<Long, SocketOwners.Owner> visible = Map.of(9L, new SocketOwners.Owner(30, "python3"));
        assertEquals(1, new DrainPolicy(Set.of(), PROXY, MESH_PORTS, Set.of()).stillOpen(sockets, visible).size());
        // Unseen owner on a mesh port: taken for the proxy's.
        assertEquals(0, new DrainPolicy(Set.of(), PROXY, MESH_PORTS, Set.of()).stillOpen(sockets, Map.of()).size());
        // A visible proxy process on any port is excluded.
        Map<Long, SocketOwners.Owner> envoy = Map.of(9L, new SocketOwners.Owner(31, "envoy"));
        assertEquals(0, new DrainPolicy(Set.of(), PROXY, Set.of(), Set.of()).stillOpen(sockets, envoy).size());
    }

    @Test
    void extraExcludedPortsAndProcesses() {
        assertEquals(0, new DrainPolicy(Set.of(), Set.of("java", "pilot-agent"), MESH_PORTS, Set.of()).stillOpen(pod, owners).size());
    }

    @Test
    void anExplicitlyExcludedPortNeverCountsWhoeverHoldsIt() {
        // The app container's own hook: its listener stays open until the SIGTERM the hook holds back.
        DrainPolicy appHook = new DrainPolicy(Set.of(), PROXY, MESH_PORTS, Set.of(8080));
        assertEquals(List.of(), appHook.stillOpen(pod, owners));
        assertEquals(Set.of(1L, 2L, 3L, 4L), appHook.candidates(pod));
        // With --port, the ports named are watched.
        assertEquals(1, new DrainPolicy(Set.of(8080), PROXY, MESH_PORTS, Set.of(8080)).stillOpen(pod, owners).size());
    }

    @Test
    void candidatesAreOnlyTheCountedSocketsThatAProcessHolds() {
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), new DrainPolicy(Set.of(), PROXY, MESH_PORTS, Set.of()).candidates(pod));
        assertEquals(Set.of(5L, 6L), new DrainPolicy(Set.of(8080), PROXY, MESH_PORTS, Set.of()).candidates(pod));
    }
}
