package dev.sidecarwait.startup;

import dev.sidecarwait.kube.ApiServer;
import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.mesh.MeshDefaults;
import dev.sidecarwait.probe.ExpectedStatus;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.process.StopSignal;
import dev.sidecarwait.tls.TlsSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one wait does, settled once from the flags, then the environment, then the defaults (cli/WaitCommand
 * settles it). What the mesh decides (readiness target, status, admin API, quit URL) is applied to the mesh named,
 * or for --mesh auto to the one found, by the methods below: a setting given always wins over the mesh's.
 *
 * @param preset the mesh named; null with {@code auto}
 * @param continueOnTimeout --on-timeout continue: a timeout is a warning and exit 0
 * @param onStop what the supervised command gets for SIGTERM (--stop-signal); null: SIGTERM itself
 * @param onStopBy where {@code onStop} was set, for the log: the flag or the variable
 * @param kube the API server k8s:// targets are asked of; null when there are none
 */
public record WaitPlan(Mesh preset, boolean auto, Duration detectGrace, List<Target> given, ExpectedStatus givenStatus,
                AdminApi admin, Duration requestTimeout, Duration total, Duration every,
                boolean continueOnTimeout, boolean skipOutside, boolean disabled, boolean allowPostStart,
                Boolean supervised, String supervisedBy, List<Target.Http> quitGiven, boolean quitSidecar,
                Duration quitEach, StopSignal onStop, String onStopBy, List<String> command, TlsSettings tls,
                ApiServer kube) {

    public List<Target> targets(Mesh found) {
        return MeshDefaults.targets(given, found);
    }

    public ExpectedStatus expected(Mesh found) {
        return MeshDefaults.expectedStatus(givenStatus, found);
    }

    /**
     * Envoy's admin API, asked why the proxy is not ready: only when the proxy's own endpoint is awaited or the URL
     * was given. A wait for dependencies alone has no proxy to explain, and nothing to ask after its timeout.
     */
    public Target.Http adminUrl(Mesh found) {
        boolean proxyAwaited = found != null && targets(found).stream().anyMatch(found::ownEndpoint);
        return proxyAwaited || admin.given() ? admin.forMesh(found) : null;
    }

    /** Whether anything is to be POSTed after the command: that rules out the hand-over. */
    public boolean quits() {
        return !quitGiven.isEmpty() || quitSidecar;
    }

    /** The quit URLs given, and with --quit-sidecar the mesh's, where it has a proxy in the pod to quit. */
    public List<Target.Http> quitUrls(Mesh found) {
        List<Target.Http> urls = new ArrayList<>(quitGiven);
        if (quitSidecar && found != null && found.quitUrl() != null) {
            urls.add((Target.Http) Target.parse(found.quitUrl()));
        }
        return urls;
    }

    /** Every URL of the run whose server is verified unless --insecure: the targets, the admin API's, the quit URLs. */
    public List<String> verifiedUrls(Mesh found) {
        List<Target> all = new ArrayList<>(targets(found));
        Target.Http admin = adminUrl(found);
        if (admin != null) {
            all.add(admin);
        }
        all.addAll(quitUrls(found));
        List<String> verified = new ArrayList<>();
        for (Target url : all) {
            if (url.verifiesTls()) {
                verified.add(url.text());
            }
        }
        return verified;
    }
}
