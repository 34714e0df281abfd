package dev.sidecarwait.drain;

import dev.sidecarwait.Clock;
import dev.sidecarwait.mesh.EnvoyListeners;
import dev.sidecarwait.probe.PlainHttp;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.ProbeFailure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Envoy's own count of the connections it still carries: the sum of downstream_cx_active over its listeners,
 * read as Istio's agent reads it with EXIT_ON_ZERO_ACTIVE_CONNECTIONS, without that feature's rough edges.
 * Left out: the admin listener (this very request), listeners on the mesh's own ports (Istio's health 15021
 * and Prometheus 15090), Envoy's internal listeners, and the per-worker copies of each listener's count.
 * Envoy without these stats is never taken for Envoy without connections: the look falls back to another.
 */
public final class EnvoyConnections implements Drainer.Look {

    /** What the last look went by: Envoy's counts, the other look (no counts), or Envoy having exited. */
    public enum Basis { COUNTS, NO_COUNTS, EXITED }

    private final EnvoyListeners envoy;
    private final Set<Integer> ignoredPorts;
    private final Drainer.Look withoutStats;
    private final ProxyProcess proxy;
    private final Consumer<String> onNoStats;
    private final Consumer<String> onExited;
    private boolean saidNoStats;
    private Basis basis = Basis.COUNTS;

    /**
     * {@code withoutStats}: the look that decides when Envoy has no such stats; {@code onNoStats} hears that,
     * once; {@code onExited} hears that Envoy stopped answering because it exited.
     */
    public EnvoyConnections(Clock clock, Target.Http admin, Duration timeout, Set<Integer> ignoredPorts, Path proc,
                            Set<String> proxyProcesses, Drainer.Look withoutStats, Consumer<String> onNoStats,
                            Consumer<String> onExited, TlsSettings tls) {
        this.envoy = new EnvoyListeners(clock, admin, timeout, tls);
        this.ignoredPorts = Set.copyOf(ignoredPorts);
        this.withoutStats = withoutStats;
        this.proxy = new ProxyProcess(proc, proxyProcesses);
        this.onNoStats = onNoStats;
        this.onExited = onExited;
    }

    public Basis basis() {
        return basis;
    }

    @Override
    public Reading look() {
        PlainHttp.Response response;
        try {
            response = envoy.stats();
        } catch (ProbeFailure failure) {
            if (proxy.gone()) {
                onExited.accept("Envoy's admin API stopped answering (" + failure.getMessage() + ") and the proxy process has "
                        + "exited: nothing is left to drain through it");
                basis = Basis.EXITED;
                return Reading.clear();
            }
            return Reading.unknown("Envoy's admin API at " + envoy.admin().text() + " is not answering: " + failure.getMessage());
        }
        proxy.noteIfRunning(); // so that its exit can be told later
        if (response.status() != 200) {
            return Reading.unknown("Envoy's admin API answered " + EnvoyListeners.STATS + " with HTTP " + response.status());
        }
        Map<String, Long> counts = EnvoyListeners.activeConnections(response.body(), ignoredPorts);
        if (counts.isEmpty()) {
            if (!saidNoStats) {
                saidNoStats = true;
                onNoStats.accept("Envoy reports no downstream_cx_active for its listeners (Istio has them only with "
                        + "EXIT_ON_ZERO_ACTIVE_CONNECTIONS=true, and only once a listener was used): counting the pod's "
                        + "sockets instead, never taking no stats for no connections");
            }
            basis = Basis.NO_COUNTS;
            return withoutStats.look();
        }
        basis = Basis.COUNTS;
        List<String> holding = new ArrayList<>();
        counts.forEach((listener, active) -> {
            if (active > 0) {
                holding.add("listener " + listener + ": " + active + (active == 1 ? " connection" : " connections"));
            }
        });
        return Reading.holding(holding);
    }
}
