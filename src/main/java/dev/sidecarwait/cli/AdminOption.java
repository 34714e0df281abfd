package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.probe.Target;
import picocli.CommandLine.Option;

/** --admin-url: where Envoy's admin API answers, for the commands that ask it something. */
final class AdminOption {

    @Option(names = "--admin-url", paramLabel = "URL|none",
            description = "Envoy's admin API (why the proxy is not ready; drain --source envoy); none to skip. "
                    + "Env: SIDECAR_WAIT_ADMIN_URL. Default: the mesh's (istio: http://localhost:15000, envoy: "
                    + "http://localhost:9901, linkerd and ambient: none).")
    String adminUrl;

    /**
     * The admin URL as settled from the flag, else the variable. {@code given}: one of them was set; {@code url}
     * is then null when it said none, and {@code turnedOffBy} says which ("--admin-url none").
     */
    record Setting(boolean given, Target.Http url, String turnedOffBy) {

        /** The given URL, else the mesh's; null when there is no admin API to ask. */
        Target.Http forMesh(Mesh mesh) {
            if (given) {
                return url;
            }
            return mesh == null || mesh.adminUrl() == null ? null : (Target.Http) Target.parse(mesh.adminUrl());
        }
    }

    Setting settle(Env env) {
        String source = adminUrl != null ? "--admin-url" : "SIDECAR_WAIT_ADMIN_URL";
        String value = adminUrl != null ? adminUrl.trim() : env.get("SIDECAR_WAIT_ADMIN_URL");
        if (value == null) {
            return new Setting(false, null, null);
        }
        if (value.equalsIgnoreCase("none")) {
            return new Setting(true, null, adminUrl != null ? "--admin-url none" : "SIDECAR_WAIT_ADMIN_URL=none");
        }
        Target target;
        try {
            target = Target.parseHttpSetting(value);
        } catch (IllegalArgumentException e) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "': " + e.getMessage());
        }
        if (!(target instanceof Target.Http http) || http.socket() != null) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "' is not an http:// URL");
        }
        return new Setting(true, http, null);
    }
}
