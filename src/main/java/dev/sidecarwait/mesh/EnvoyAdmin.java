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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks Envoy's admin API why the proxy is not ready: its server state (/server_info) and whether the control
 * plane has delivered clusters (CDS) and listeners (LDS) and the workers have started (/stats).
 */
public final class EnvoyAdmin {

    public static final String CDS = "cluster_manager.cds.update_success";
    public static final String LDS = "listener_manager.lds.update_success";
    public static final String WORKERS = "listener_manager.workers_started";

    /** What the admin API said; {@code state} is null when it could not be read. */
    public record Diagnosis(String adminUrl, boolean reachable, String state, Map<String, Long> stats, String explanation) {
    }

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern STAT = Pattern.compile("^([A-Za-z0-9_.]+): (\\d+)$", Pattern.MULTILINE);
    // Envoy's filter is a regular expression; percent-encoded so the request line stays a valid URI.
    private static final String STATS_PATH = "/stats?filter=%5E%28cluster_manager%5C.cds%5C.update_success"
            + "%7Clistener_manager%5C.lds%5C.update_success%7Clistener_manager%5C.workers_started%29%24";
    private static final int KEEP = 256 * 1024;

    private final PlainHttp http;

    public EnvoyAdmin(Clock clock, TlsSettings tls) {
        this.http = new PlainHttp(clock, tls);
    }

    /** Two requests, each within {@code timeout}. Never throws: an unreachable admin API is a diagnosis too. */
    public Diagnosis diagnose(Target.Http admin, Duration timeout) {
        Timeout each = Timeout.of(timeout);
        String base = admin.text().replaceAll("/+$", "");
        String state;
        try {
            PlainHttp.Response info = http.fetch(new Target.Http(admin.host(), admin.port(), "/server_info", base), each, KEEP);
            if (info.status() != 200) {
                return new Diagnosis(base, true, null, Map.of(),
                        "Envoy's admin API at " + base + " answered /server_info with HTTP " + info.status());
            }
            state = state(info.body());
        } catch (ProbeFailure failure) {
            return new Diagnosis(base, false, null, Map.of(),
                    "Envoy's admin API at " + base + " is not reachable: " + failure.getMessage());
        }
        Map<String, Long> stats = Map.of();
        try {
            stats = stats(http.fetch(new Target.Http(admin.host(), admin.port(), STATS_PATH, base), each, KEEP).body());
        } catch (ProbeFailure unavailable) {
            // the state alone still says something
        }
        return new Diagnosis(base, true, state, stats, explain(state, stats));
    }

    /** The "state" of /server_info's JSON ("LIVE", "INITIALIZING", ...); null when there is none. */
    static String state(String serverInfo) {
        Matcher matcher = STATE.matcher(serverInfo);
        return matcher.find() ? matcher.group(1) : null;
    }

    /** "name: 12" lines of /stats text; a count too large for a long is left out. */
    static Map<String, Long> stats(String body) {
        Map<String, Long> stats = new LinkedHashMap<>();
        Matcher matcher = STAT.matcher(body);
        while (matcher.find()) {
            try {
                stats.put(matcher.group(1), Long.parseLong(matcher.group(2)));
            } catch (NumberFormatException tooLarge) {
                // not a count Envoy could have
            }
        }
        return stats;
    }

    static String explain(String state, Map<String, Long> stats) {
        if (state == null) {
            return "Envoy answered /server_info without a state";
        }
        switch (state) {
            case "LIVE":
                return "Envoy is LIVE: it has its configuration and serves traffic";
            case "DRAINING":
                return "Envoy is DRAINING: it is shutting down or failing health checks";
            case "PRE_INITIALIZING":
            case "INITIALIZING":
                if (Long.valueOf(0).equals(stats.get(CDS))) {
                    return "Envoy is up but has not received its clusters (CDS) from the control plane yet";
                }
                if (Long.valueOf(0).equals(stats.get(LDS))) {
                    return "Envoy is up but has not received its listeners (LDS) from the control plane yet";
                }
                if (Long.valueOf(0).equals(stats.get(WORKERS))) {
                    return "Envoy has its clusters and listeners but has not started its workers yet";
                }
                return state.equals("PRE_INITIALIZING")
                        ? "Envoy is starting: it has not finished initialising its cluster manager (PRE_INITIALIZING)"
                        : "Envoy is INITIALIZING: waiting for the rest of its configuration (routes, secrets) from the control plane";
            default:
                return "Envoy reports state " + state;
        }
    }
}
