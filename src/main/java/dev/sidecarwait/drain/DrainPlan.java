package dev.sidecarwait.drain;

import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.tls.TlsSettings;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything one drain does, settled once from the flags, then the environment, then the defaults (3 s at least,
 * 30 s at most, a look every second, the pod's sockets). What the data plane decides (the proxy's processes and
 * ports, Envoy's admin API) is applied to the mesh named, or for --mesh auto to the one found, by the methods below:
 * a setting given always wins over the mesh's.
 *
 * @param preset the mesh named (null with auto)
 * @param ports only these local ports (empty: every listening socket but the proxy's)
 * @param processesGiven --exclude-process, or null for the mesh's processes
 */
public record DrainPlan(Mesh preset, boolean auto, Set<Integer> ports, Set<Integer> excludedPorts, List<String> processesGiven,
                        Duration atLeast, Duration atMost, Duration every, Source source, AdminApi admin,
                        boolean gracefulFirst, boolean gracefulAfter, TlsSettings tls) {

    /** What counts as still open: the pod's sockets, Envoy's count of downstream connections, or both. */
    public enum Source { PROC, ENVOY, BOTH }

    public DrainPlan {
        ports = Collections.unmodifiableSet(new LinkedHashSet<>(ports)); // in the order given, for messages
        excludedPorts = Collections.unmodifiableSet(new LinkedHashSet<>(excludedPorts));
    }

    /** The processes whose sockets never count: those given, else the mesh's proxy. */
    Set<String> processes(Mesh mesh) {
        Set<String> processes = new LinkedHashSet<>(processesGiven != null ? processesGiven
                : mesh == null ? List.of() : mesh.proxyProcesses());
        processes.removeIf(String::isBlank);
        return processes;
    }

    /** Whether Envoy's admin API is asked anything: for its counts, or to drain its listeners. */
    boolean asksEnvoy() {
        return source != Source.PROC || gracefulFirst || gracefulAfter;
    }
}
