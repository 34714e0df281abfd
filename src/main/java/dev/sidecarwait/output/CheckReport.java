package dev.sidecarwait.output;

import dev.sidecarwait.UtcTime;
import dev.sidecarwait.dns.Literals;
import dev.sidecarwait.mesh.EnvoyAdmin;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.wire.PeerText;
import java.io.PrintStream;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What `check` prints: one look at every target and, where there is one, what Envoy's admin API said. */
public final class CheckReport {

    private final List<ProbeResult> results;
    private final EnvoyAdmin.Diagnosis envoy;
    private final Instant at;
    private final String dataPlane;
    private final String tls;

    /**
     * {@code dataPlane}: what --mesh auto found, in words; null when the mesh was named. {@code tls}: how TLS servers
     * were verified, when a target uses TLS, else null.
     */
    public CheckReport(List<ProbeResult> results, EnvoyAdmin.Diagnosis envoy, Instant at, String dataPlane, String tls) {
        this.results = results;
        this.envoy = envoy;
        this.at = at;
        this.dataPlane = dataPlane;
        this.tls = tls;
    }

    public boolean allReady() {
        return results.stream().allMatch(ProbeResult::ready);
    }

    /** {@code whole}: answers printed uncut (else the first 80 characters). */
    public void printText(PrintStream out, boolean whole) {
        out.println(UtcTime.millis(at) + "  "
                + (allReady() ? "ready" : "NOT READY"));
        if (dataPlane != null) {
            out.println("  mesh " + dataPlane);
        }
        if (tls != null) {
            out.println("  tls " + tls);
        }
        for (ProbeResult result : results) {
            List<String> parts = new ArrayList<>();
            parts.add(result.ready() ? "ready    " : "NOT READY");
            parts.add(result.target().text());
            boolean tellsWhat = result.target() instanceof Target.Server || result.target() instanceof Target.File
                    || result.target() instanceof Target.Tls || result.target() instanceof Target.Kube;
            if (result.status() != 0) {
                // A redirect to another host is not followed: the detail says where it pointed, as wait and --json do.
                String said = "HTTP status code " + result.status();
                parts.add("HTTP " + result.status() + (result.detail().startsWith(said) ? result.detail().substring(said.length()) : ""));
            } else if (!result.ready()) {
                parts.add(result.detail());
            } else {
                parts.add(tellsWhat ? abbreviate(result.bodyLine(), whole)
                        : result.target() instanceof Target.Listening ? "listening"
                        : result.target() instanceof Target.Dns ? "resolved" : "connected");
            }
            if (!result.addresses().isEmpty()) {
                parts.add("at " + addresses(result.addresses(), whole));
            }
            parts.add(result.latency().toMillis() + " ms");
            if (!tellsWhat && !result.bodyLine().isEmpty()) {
                parts.add("\"" + abbreviate(result.bodyLine(), whole) + "\"");
            }
            out.println("  " + PeerText.printable(String.join("  ", parts)));
        }
        if (envoy != null) {
            String facts = envoy.state() == null ? "" : "state " + envoy.state() + statsText(envoy.stats()) + ": ";
            out.println("  envoy " + envoy.adminUrl() + ": " + PeerText.printable(facts + envoy.explanation()));
        }
        out.flush();
    }

    public void printJson(PrintStream out) {
        StringBuilder json = new StringBuilder("{\"time\":").append(Json.quote(UtcTime.micros(at)))
                .append(",\"ready\":").append(allReady());
        if (dataPlane != null) {
            json.append(",\"mesh\":").append(Json.quote(dataPlane));
        }
        if (tls != null) {
            json.append(",\"tls\":").append(Json.quote(tls));
        }
        json.append(",\"targets\":[");
        for (int i = 0; i < results.size(); i++) {
            ProbeResult result = results.get(i);
            json.append(i == 0 ? "" : ",").append("{\"url\":").append(Json.quote(result.target().text()))
                    .append(",\"kind\":").append(Json.quote(result.target().kind()))
                    .append(",\"ready\":").append(result.ready())
                    .append(",\"status\":").append(result.status() == 0 ? "null" : Integer.toString(result.status()))
                    .append(",\"error\":").append(result.ready() ? "null" : Json.quote(result.detail()))
                    .append(",\"addresses\":[").append(result.addresses().stream().map(a -> Json.quote(Literals.text(a)))
                            .collect(Collectors.joining(","))).append(']')
                    .append(",\"latencyMillis\":").append(result.latency().toMillis())
                    .append(",\"body\":").append(Json.quote(result.bodyLine())).append('}');
        }
        json.append(']');
        if (envoy != null) {
            json.append(",\"envoy\":{\"admin\":").append(Json.quote(envoy.adminUrl()))
                    .append(",\"reachable\":").append(envoy.reachable())
                    .append(",\"state\":").append(envoy.state() == null ? "null" : Json.quote(envoy.state()))
                    .append(",\"stats\":{");
            int n = 0;
            for (Map.Entry<String, Long> stat : envoy.stats().entrySet()) {
                json.append(n++ == 0 ? "" : ",").append(Json.quote(stat.getKey())).append(':').append(stat.getValue());
            }
            json.append("},\"explanation\":").append(Json.quote(envoy.explanation())).append('}');
        }
        out.println(json.append('}'));
        out.flush();
    }

    private static String statsText(Map<String, Long> stats) {
        if (stats.isEmpty()) {
            return "";
        }
        return ", CDS updates " + stats.getOrDefault(EnvoyAdmin.CDS, -1L) + ", LDS updates "
                + stats.getOrDefault(EnvoyAdmin.LDS, -1L) + ", workers started " + stats.getOrDefault(EnvoyAdmin.WORKERS, -1L);
    }

    /** "10.96.0.12, fd00::12"; beyond four, "and N more" unless {@code whole}. */
    private static String addresses(List<InetAddress> addresses, boolean whole) {
        List<String> shown = addresses.stream().limit(whole ? addresses.size() : 4).map(Literals::text).toList();
        return String.join(", ", shown) + (shown.size() < addresses.size() ? " and " + (addresses.size() - shown.size()) + " more" : "");
    }

    private static String abbreviate(String text, boolean whole) {
        return whole || text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
