package dev.sidecarwait.drain;

import dev.sidecarwait.Clock;
import dev.sidecarwait.probe.PlainHttp;
import dev.sidecarwait.probe.ProbeFailure;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Timeout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    /** What Istio's agent asks (pkg/envoy/agent.go): only stats that were ever used, ending in downstream_cx_active. */
    static final String STATS = "/stats?usedonly&filter=downstream_cx_active$";
    /** What Istio's agent sends on SIGTERM: stop taking new inbound connections, after Envoy's drain period. */
    static final String GRACEFUL_DRAIN = "/drain_listeners?inboundonly&graceful";
    private static final int MAX_BODY = 1024 * 1024;

    private final PlainHttp http;
    private final Target.Http admin;
    private final Timeout timeout;
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
                            Consumer<String> onExited) {
        this.http = new PlainHttp(clock);
        this.admin = admin;
        this.timeout = Timeout.of(timeout);
        this.ignoredPorts = Set.copyOf(ignoredPorts);
        this.withoutStats = withoutStats;
        this.proxy = new ProxyProcess(proc, proxyProcesses);
        this.onNoStats = onNoStats;
        this.onExited = onExited;
    }

    public Basis basis() {
        return basis;
    }

    /** POST /drain_listeners?inboundonly&graceful; returns what happened, in words, and never throws. */
    public String drainInboundListeners() {
        try {
            PlainHttp.Response response = http.send("POST", at(GRACEFUL_DRAIN), timeout);
            return response.status() == 200
                    ? "Asked Envoy to drain its inbound listeners gracefully (POST " + GRACEFUL_DRAIN + ": HTTP 200)"
                    : "Envoy refused to drain its inbound listeners: POST " + GRACEFUL_DRAIN + " answered HTTP " + response.status();
        } catch (ProbeFailure failure) {
            return "Could not ask Envoy to drain its inbound listeners: POST " + admin.text() + GRACEFUL_DRAIN + ": "
                    + failure.getMessage();
        }
    }

    @Override
    public Reading look() {
        PlainHttp.Response response;
        try {
            response = http.fetch(at(STATS), timeout, MAX_BODY);
        } catch (ProbeFailure failure) {
            if (proxy.gone()) {
                onExited.accept("Envoy's admin API stopped answering (" + failure.getMessage() + ") and the proxy process has "
                        + "exited: nothing is left to drain through it");
                basis = Basis.EXITED;
                return Reading.clear();
            }
            return Reading.unknown("Envoy's admin API at " + admin.text() + " is not answering: " + failure.getMessage());
        }
        proxy.noteIfRunning(); // so that its exit can be told later
        if (response.status() != 200) {
            return Reading.unknown("Envoy's admin API answered " + STATS + " with HTTP " + response.status());
        }
        Map<String, Long> counts = parse(response.body(), ignoredPorts);
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

    /**
     * The application listeners' counts from /stats text ("listener.0.0.0.0_15006.downstream_cx_active: 2"),
     * by listener name; empty when there is none.
     */
    static Map<String, Long> parse(String stats, Set<Integer> ignoredPorts) {
        Map<String, Long> counts = new LinkedHashMap<>();
        String suffix = ".downstream_cx_active";
        for (String line : stats.split("\n")) {
            int colon = line.lastIndexOf(':');
            if (colon < 0 || !line.startsWith("listener.")) {
                continue; // http.* counts the same connections again; anything else is not a listener's
            }
            String name = line.substring(0, colon).trim();
            if (!name.endsWith(suffix) || name.length() <= "listener.".length() + suffix.length()) {
                continue; // "listener.downstream_cx_active" names no listener
            }
            String listener = name.substring("listener.".length(), name.length() - suffix.length());
            if (listener.startsWith("admin") || listener.startsWith("envoy_internal") || listener.contains(".worker_")
                    || ignoredPorts.contains(port(listener))) {
                continue;
            }
            try {
                counts.put(listener, Long.parseLong(line.substring(colon + 1).trim()));
            } catch (NumberFormatException notACount) {
                // a malformed line says nothing
            }
        }
        return counts;
    }

    /** "0.0.0.0_15006" and "[__]_15006" are on port 15006; -1 for a listener named otherwise. */
    private static int port(String listener) {
        int underscore = listener.lastIndexOf('_');
        try {
            return underscore < 0 ? -1 : Integer.parseInt(listener.substring(underscore + 1));
        } catch (NumberFormatException named) {
            return -1;
        }
    }

    private Target.Http at(String pathAndQuery) {
        String base = admin.path().endsWith("/") ? admin.path().substring(0, admin.path().length() - 1) : admin.path();
        return new Target.Http(admin.host(), admin.port(), base + pathAndQuery, admin.text() + pathAndQuery);
    }
}
