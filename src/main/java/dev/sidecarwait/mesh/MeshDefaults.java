package dev.sidecarwait.mesh;

import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import java.util.ArrayList;
import java.util.List;

/** What the data plane decides for a wait or a check, where no setting was given: what to probe, which status is ready. */
public final class MeshDefaults {

    private MeshDefaults() {
    }

    /**
     * The targets given, else the mesh's readiness. Ambient has no proxy to ask, so ztunnel's listeners are awaited
     * beside any URL given; with no mesh ({@code mesh} null), only what was given.
     */
    public static List<Target> targets(List<Target> given, Mesh mesh) {
        List<Target> targets = new ArrayList<>();
        if (mesh != null && (given.isEmpty() || mesh == Mesh.AMBIENT)) {
            targets.add(mesh.readiness());
        }
        targets.addAll(given);
        return List.copyOf(targets);
    }

    /** The status given, else the mesh's rule (200 with no mesh). */
    public static ExpectedStatus expectedStatus(ExpectedStatus given, Mesh mesh) {
        return given != null ? given : ExpectedStatus.parse(mesh == null ? "200" : mesh.expectStatus());
    }
}
