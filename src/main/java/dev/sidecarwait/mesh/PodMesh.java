package dev.sidecarwait.mesh;

import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The data plane a command works with: the one --mesh names, or for auto the one the pod's socket table shows.
 *
 * @param mesh null when auto found none
 * @param detected null when --mesh (or SIDECAR_WAIT_MESH) named it
 */
public record PodMesh(Mesh mesh, Detection detected) {

    /** Where the pod's processes and sockets are read. */
    public static Path proc() {
        return Path.of("/proc");
    }

    /** For one look (check, drain, quit): auto decides from the socket table as it is now, else {@code preset}. */
    public static PodMesh now(Mesh preset, boolean auto, Detector detector) throws IOException {
        return auto ? of(detector.now()) : new PodMesh(preset, null);
    }

    /** What is said when the socket table, which auto decides from, cannot be read. */
    public static String unreadable(IOException e) {
        return "Cannot tell which data plane this pod has (--mesh auto): cannot read the socket table: " + e.getMessage();
    }

    public static PodMesh of(Detection detection) {
        return new PodMesh(detection.mesh(), detection);
    }

    /**
     * The line that says what auto found, from which ports; null when the mesh was named. {@code lookedFor}: how long
     * it looked, said when it found none (null: not said).
     */
    public String detectedLine(String lookedFor) {
        if (detected == null) {
            return null;
        }
        return "Data plane (--mesh auto): " + detected.describe()
                + (detected.none() && lookedFor != null ? ", after looking for " + lookedFor : "");
    }

    /**
     * A failed look at the proxy's own endpoint whose port the socket table shows listening: say that the port
     * is there and did not answer (Istio may stop app containers from reaching its ports, istio/istio#61864).
     */
    public String unanswered(ProbeResult result) {
        Target target = result.target();
        if (detected == null || result.ready() || result.status() != 0 || !target.proxyEndpoint()
                || !detected.ports().contains(target.port())) {
            return "";
        }
        return " (port " + target.port() + " is listening in this pod but did not answer: the mesh may keep app "
                + "containers from its ports, istio/istio#61864)";
    }
}
