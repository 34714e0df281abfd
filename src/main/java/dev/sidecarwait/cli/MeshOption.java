package dev.sidecarwait.cli;

import picocli.CommandLine.Option;

/** --mesh: one switch for every command's defaults. Explicit flags and settings' own variables still win. */
final class MeshOption {

    @Option(names = "--mesh", paramLabel = "istio|linkerd|envoy", converter = Converters.MeshChoice.class,
            description = "Defaults for this mesh: readiness URL and status, quit URL, Envoy admin API, the proxy's "
                    + "processes and ports. Env: SIDECAR_WAIT_MESH. Default: istio.")
    Mesh mesh;

    Mesh resolve(Env env) {
        if (mesh != null) {
            return mesh;
        }
        Mesh fromEnv = env.parse("SIDECAR_WAIT_MESH", value -> Choices.parse(Mesh.values(), value));
        return fromEnv != null ? fromEnv : Mesh.ISTIO;
    }
}
