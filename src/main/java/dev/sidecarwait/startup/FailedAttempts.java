package dev.sidecarwait.startup;

import dev.sidecarwait.Clock;
import dev.sidecarwait.mesh.EnvoyAdmin;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What the log says of an attempt that failed: each one at --verbose, with Envoy's account of why the proxy is not
 * ready; a cause that will not go away by itself (the API server refusing a k8s:// target: 401, 403, 404) also at
 * info, once when first seen and again only when it changes, so a pod's log says why without --verbose. Called from
 * each target's thread.
 */
final class FailedAttempts implements Consumer<ProbeResult> {

    private final Log log;
    private final Clock clock;
    private final PodMesh found;
    private final EnvoyAdmin envoy;
    private final Target.Http admin;
    private final Duration requestTimeout;
    private final long deadline;
    private final Map<Target, String> standing = new ConcurrentHashMap<>();

    FailedAttempts(Log log, Clock clock, PodMesh found, EnvoyAdmin envoy, Target.Http admin, Duration requestTimeout,
                   long deadline) {
        this.log = log;
        this.clock = clock;
        this.found = found;
        this.envoy = envoy;
        this.admin = admin;
        this.requestTimeout = requestTimeout;
        this.deadline = deadline;
    }

    @Override
    public void accept(ProbeResult failed) {
        if (failed.standing() == ProbeResult.Standing.LASTING && !failed.detail().equals(standing.put(failed.target(), failed.detail()))) {
            log.info(describe(failed, found));
        }
        log.debug("Not ready yet: " + describe(failed, found) + explanation());
    }

    /** With --verbose, why the proxy is not ready, in the time a request may take and never past the deadline. */
    private String explanation() {
        long left = deadline - clock.nanoTime();
        if (admin == null || !log.isDebug() || left <= 0) {
            return "";
        }
        Duration budget = Duration.ofNanos(Math.min(requestTimeout.toNanos(), left) / 2);
        return " (" + envoy.diagnose(admin, budget).explanation() + ")";
    }

    static String describe(ProbeResult result, PodMesh found) {
        return result.target().text() + ": " + result.detail() + found.unanswered(result);
    }
}
