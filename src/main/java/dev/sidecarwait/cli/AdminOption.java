package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.probe.Target;
import picocli.CommandLine.Option;

/** --admin-url: where Envoy's admin API answers, for the commands that ask it something. */
final class AdminOption {

    @Option(names = "--admin-url", paramLabel = "URL|none",
            description = "Envoy's admin API (why the proxy is not ready; drain --source envoy); none to skip. "
                    + "Env: SIDECAR_WAIT_ADMIN_URL. Default: the mesh's (istio: http://localhost:15000, envoy: "
                    + "http://localhost:9901, linkerd and ambient: none).")
    String adminUrl;

    AdminApi settle(Env env) {
        String source = adminUrl != null ? "--admin-url" : "SIDECAR_WAIT_ADMIN_URL";
        String value = adminUrl != null ? adminUrl.trim() : env.get("SIDECAR_WAIT_ADMIN_URL");
        if (value == null) {
            return new AdminApi(false, null, null);
        }
        if (value.equalsIgnoreCase("none")) {
            return new AdminApi(true, null, adminUrl != null ? "--admin-url none" : "SIDECAR_WAIT_ADMIN_URL=none");
        }
        Target target;
        try {
            target = Target.parseHttpSetting(value);
        } catch (IllegalArgumentException e) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "': " + e.getMessage());
        }
        if (!(target instanceof Target.Http http) || http.socket() != null) {
            throw UsageError.invalid(source, "'" + Target.redacted(value) + "' is not an http:// or https:// URL");
        }
        return new AdminApi(true, http, null);
    }
}
