package dev.sidecarwait.check;

import dev.sidecarwait.kube.ApiServer;
import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.TlsSettings;
import java.time.Duration;
import java.util.List;

/**
 * Everything one check does, settled once from the flags, then the environment, then the defaults. What the data
 * plane decides (its own endpoint, the expected status, Envoy's admin API) is applied at each look to the mesh named,
 * or for --mesh auto to the one found then: a setting given always wins over the mesh's.
 *
 * @param preset the mesh named (null with auto)
 * @param given the targets given (empty: the mesh's own endpoint)
 * @param status the status codes given, or null for the mesh's
 * @param every the time between looks with watch
 * @param atMost how long the whole check may take, or null for no limit
 * @param verbose ask Envoy even when no target is its own endpoint, and print answers uncut
 */
public record CheckPlan(Mesh preset, boolean auto, List<Target> given, ExpectedStatus status, AdminApi admin,
                        Duration requestTimeout, Output output, boolean watch, Duration every, Duration atMost,
                        boolean verbose, TlsSettings tls, ApiServer kube) {

    /** Where each look's report goes: text for people, JSON for scripts, or nowhere (the exit code says it). */
    public enum Output { TEXT, JSON, NONE }

    public CheckPlan {
        given = List.copyOf(given);
    }
}
