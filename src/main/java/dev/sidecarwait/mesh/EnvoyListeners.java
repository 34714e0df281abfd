package dev.sidecarwait.mesh;

import dev.sidecarwait.Clock;
import dev.sidecarwait.probe.PlainHttp;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Envoy's admin API about its listeners: how many downstream connections each still carries, and the request
 * that makes it stop taking new inbound ones. Paths and wire format as Istio's agent uses them (pkg/envoy/agent.go).
 */
public final class EnvoyListeners {

    /** What Istio's agent asks (pkg/envoy/agent.go): only stats that were ever used, ending in downstream_cx_active. */
    public static final String STATS = "/stats?usedonly&filter=downstream_cx_active$";
    /** What Istio's agent sends on SIGTERM: stop taking new inbound connections, after Envoy's drain period. */
    public static final String GRACEFUL_DRAIN = "/drain_listeners?inboundonly&graceful";
    private static final int MAX_BODY = 1024 * 1024;

    private final PlainHttp http;
    private final Target.Http admin;
    private final Timeout timeout;

    public EnvoyListeners(Clock clock, Target.Http admin, Duration timeout, TlsSettings tls) {
        this.http = new PlainHttp(clock, tls);
        this.admin = admin;
        this.timeout = Timeout.of(timeout);
    }

    public Target.Http admin() {
        return admin;
    }

    /** POST /drain_listeners?inboundonly&graceful; whether Envoy accepted, and what happened in words. Never throws. */
    public Answer drainInbound() {
        try {
            PlainHttp.Response response = http.send("POST", at(GRACEFUL_DRAIN), timeout);
            return response.status() == 200
                    ? new Answer(true, "Asked Envoy to drain its inbound listeners gracefully (POST " + GRACEFUL_DRAIN + ": HTTP 200)")
                    : new Answer(false, "Envoy refused to drain its inbound listeners: POST " + GRACEFUL_DRAIN + " answered HTTP "
                    + response.status());
        } catch (ProbeFailure failure) {
            return new Answer(false, "Could not ask Envoy to drain its inbound listeners: POST " + admin.text() + GRACEFUL_DRAIN
                    + ": " + failure.getMessage());
        }
    }

    public record Answer(boolean accepted, String words) {
    }

    /** GET the listeners' downstream_cx_active; throws when the admin API does not answer. */
    public PlainHttp.Response stats() throws ProbeFailure {
        return http.fetch(at(STATS), timeout, MAX_BODY);
    }

    /**
     * The application listeners' counts from /stats text ("listener.0.0.0.0_15006.downstream_cx_active: 2"),
     * by listener name; empty when there is none. Left out: the admin listener, Envoy's internal listeners, the
     * per-worker copies of each count, and listeners on {@code ignoredPorts}.
     */
    public static Map<String, Long> activeConnections(String stats, Set<Integer> ignoredPorts) {
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
