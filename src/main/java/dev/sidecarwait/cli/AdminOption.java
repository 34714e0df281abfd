package dev.sidecarwait.cli;

import dev.sidecarwait.probe.Target;
import picocli.CommandLine.Option;

/** --admin-url: where Envoy's admin API answers, for the commands that ask it something. */
final class AdminOption {

    @Option(names = "--admin-url", paramLabel = "URL|none",
            description = "Envoy's admin API (why the proxy is not ready; drain --source envoy); none to skip. "
                    + "Env: SIDECAR_WAIT_ADMIN_URL. Default: the mesh's (istio: http://localhost:15000, envoy: http://localhost:9901, linkerd: none).")
    String adminUrl;

    /** Whether the admin URL was given (flag or variable), rather than taken from the mesh preset. */
    boolean given(Env env) {
        return adminUrl != null || env.get("SIDECAR_WAIT_ADMIN_URL") != null;
    }

    /** "--admin-url none" or "SIDECAR_WAIT_ADMIN_URL=none" when the admin API was turned off so; else null. */
    String turnedOffBy(Env env) {
        String value = adminUrl != null ? adminUrl.trim() : env.get("SIDECAR_WAIT_ADMIN_URL");
        if (value == null || !value.equalsIgnoreCase("none")) {
            return null;
        }
        return adminUrl != null ? "--admin-url none" : "SIDECAR_WAIT_ADMIN_URL=none";
    }

    /** Null when there is no admin API to ask. */
    Target.Http resolve(Env env, Mesh mesh) {
        String source = adminUrl != null ? "--admin-url" : "SIDECAR_WAIT_ADMIN_URL";
        String value = adminUrl != null ? adminUrl.trim() : env.get("SIDECAR_WAIT_ADMIN_URL");
        if (value == null) {
            return mesh.adminUrl == null ? null : (Target.Http) Target.parse(mesh.adminUrl);
        }
        if (value.equalsIgnoreCase("none")) {
            return null;
        }
        Target target;
        try {
            target = Target.parse(value);
        } catch (IllegalArgumentException e) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "': " + e.getMessage());
        }
        if (!(target instanceof Target.Http http)) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "' is not an http:// URL");
        }
        return http;
    }
}
