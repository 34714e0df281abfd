package dev.sidecarwait.output;

import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * What a wait is for, as its log lines name it. With the proxy's readiness endpoint alone, pilot-agent's very
 * words ("Waiting for Envoy proxy to be ready", "Envoy is ready!"), so that existing log searches match; with
 * dependencies, their URLs, beside the proxy or alone.
 *
 * @param proxy "Envoy proxy", "Linkerd proxy", or null when no target is the proxy's own endpoint
 */
public record Awaited(String proxy, List<String> others) {

    public Awaited {
        others = List.copyOf(others);
    }

    /** The proxy's own readiness endpoints are HTTP on loopback at its ports; anything else is a dependency, named by its URL. */
    public static Awaited of(List<Target> targets, Mesh mesh) {
        String proxy = null;
        List<String> others = new ArrayList<>();
        for (Target target : targets) {
            if (target instanceof Target.Listening) {
                proxy = target.text();
            } else if (mesh != null && mesh.ownEndpoint(target)) {
                proxy = mesh == Mesh.LINKERD ? "Linkerd proxy" : "Envoy proxy";
            } else {
                others.add(target.text());
            }
        }
        return new Awaited(proxy, others);
    }

    public String waiting(String timeout) {
        return "Waiting for " + subject() + " to be ready (timeout: " + timeout + ")...";
    }

    public String ready() {
        if (others.isEmpty()) {
            return proxy.equals("Envoy proxy") ? "Envoy is ready!" : proxy + " is ready!";
        }
        return subject() + (proxy == null && others.size() == 1 ? " is" : " are") + " ready!";
    }

    /**
     * The ready line with what each k8s:// target was ready by ("complete (1 succeeded)", "not found: absent counts as
     * done"): a Job that ran and one that was never there read differently. Other targets say nothing more.
     */
    public String ready(List<ProbeResult> results) {
        List<String> why = new ArrayList<>();
        for (ProbeResult result : results) {
            if (result.target() instanceof Target.Kube && !result.bodyLine().isEmpty()) {
                why.add(proxy == null && others.size() == 1 ? result.bodyLine() : result.target().text() + ": " + result.bodyLine());
            }
        }
        return ready() + (why.isEmpty() ? "" : " (" + String.join("; ", why) + ")");
    }

    public String timedOut(String lastErrors) {
        return "timeout waiting for " + subject() + " to become ready. Last error: " + lastErrors;
    }

    /** What is awaited, in words: "Envoy proxy", "Envoy proxy and redis://cache:6379". */
    public String subject() {
        List<String> all = new ArrayList<>();
        if (proxy != null) {
            all.add(proxy);
        }
        all.addAll(others);
        if (all.size() == 1) {
            return all.get(0);
        }
        return String.join(", ", all.subList(0, all.size() - 1)) + " and " + all.get(all.size() - 1);
    }

    /** Ambient without a dependency: say what ztunnel's sockets prove, and how to prove the path. */
    public static String proves(Mesh mesh, List<Target> targets) {
        if (mesh != Mesh.AMBIENT || targets.size() > 1) {
            return "";
        }
        return " Its sockets prove that this pod's traffic is redirected to ztunnel, not that ztunnel has this "
                + "workload's certificate: to prove the path, add a dependency (--url postgres://db:5432, redis://cache:6379), "
                + "which only the real server can answer.";
    }
}
