package dev.sidecarwait.mesh;

import dev.sidecarwait.probe.Target;

/**
 * Where Envoy's admin API answers, as settled from --admin-url, else SIDECAR_WAIT_ADMIN_URL. {@code given}: one of
 * them was set; {@code url} is then null when it said none, and {@code turnedOffBy} says which ("--admin-url none").
 */
public record AdminApi(boolean given, Target.Http url, String turnedOffBy) {

    /** The given URL, else the mesh's; null when there is no admin API to ask. */
    public Target.Http forMesh(Mesh mesh) {
        if (given) {
            return url;
        }
        return mesh == null || mesh.adminUrl() == null ? null : (Target.Http) Target.parse(mesh.adminUrl());
    }
}
