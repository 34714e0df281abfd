package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.Mesh;
import picocli.CommandLine.Option;

/** --mesh: one switch for every command's defaults. Explicit flags and settings' own variables still win. */
final class MeshOption {

    /** A data plane, or auto: the one this pod's socket table shows. */
    enum Choice {
        ISTIO, LINKERD, ENVOY, AMBIENT, AUTO;

        /** Null for auto. */
        Mesh preset() {
            return this == AUTO ? null : Mesh.valueOf(name());
        }
    }

    @Option(names = "--mesh", paramLabel = "istio|linkerd|envoy|ambient|auto", converter = Converters.MeshChoice.class,
            description = "Defaults for this data plane: readiness URL and status, quit URL, Envoy admin API, the proxy's "
                    + "processes and ports. ambient: Istio's ztunnel, whose listeners 15001, 15006 and 15008 must be in the "
                    + "pod. auto: whichever the pod's socket table shows (Istio sidecar, ambient, Linkerd, or none). "
                    + "Env: SIDECAR_WAIT_MESH. Default: istio.")
    Choice mesh;

    Choice resolve(Env env) {
        if (mesh != null) {
            return mesh;
        }
        Choice fromEnv = env.parse("SIDECAR_WAIT_MESH", value -> Choices.parse(Choice.values(), value));
        return fromEnv != null ? fromEnv : Choice.ISTIO;
    }
}
