package dev.sidecarwait.mesh;

import dev.sidecarwait.sockets.TcpTableRow;
import dev.sidecarwait.sockets.TcpState;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which data plane a pod has, told from its own socket table alone (no request: Istio may stop app containers
 * from reaching its ports, istio/istio#61864). An Istio sidecar (pilot-agent's 15020, Envoy's 15000, 15021,
 * 15090) comes before ambient, because a sidecar's Envoy listens on 15001 and 15006 too; ambient is ztunnel's
 * 15001, 15006, 15008 without those; Linkerd is 4191, 4140, 4143. Any one port of a signature is enough: a
 * proxy binds its ports one after another.
 *
 * @param mesh what was found, or null for no mesh
 * @param ports the listening ports it was told from, ascending
 */
public record Detection(Mesh mesh, List<Integer> ports) {

    private static final List<Mesh> IN_ORDER = List.of(Mesh.ISTIO, Mesh.LINKERD, Mesh.AMBIENT);

    public Detection {
        ports = List.copyOf(ports);
    }

    public static Detection of(Collection<TcpTableRow> sockets) {
        Set<Integer> listening = sockets.stream().filter(socket -> socket.state() == TcpState.LISTEN)
                .map(TcpTableRow::localPort).collect(Collectors.toCollection(TreeSet::new));
        for (Mesh mesh : IN_ORDER) {
            List<Integer> found = listening.stream().filter(mesh.signature()::contains).toList();
            if (!found.isEmpty()) {
                return new Detection(mesh, found);
            }
        }
        return new Detection(null, List.of());
    }

    public boolean none() {
        return mesh == null;
    }

    /** "Istio sidecar (listening: 15000, 15020)", or what was looked for and not found. */
    public String describe() {
        if (mesh == null) {
            return "no mesh (nothing listens on " + IN_ORDER.stream().flatMap(m -> m.signature().stream()).sorted()
                    .map(String::valueOf).collect(Collectors.joining(", ")) + ")";
        }
        return mesh.title() + " (listening: " + ports.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
    }
}
