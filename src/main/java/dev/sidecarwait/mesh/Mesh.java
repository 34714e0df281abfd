package dev.sidecarwait.mesh;

import dev.sidecarwait.probe.Target;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The data planes a pod can have, each with its defaults: where readiness is read, which status means ready,
 * where the proxy is told to quit, where Envoy's admin API answers, which processes and ports are the proxy's,
 * and which listening ports give it away in the pod's socket table.
 */
public enum Mesh {
    /** An Envoy sidecar run by Istio's pilot-agent, legacy or native (an init container that keeps running). */
    ISTIO("Istio sidecar", "http://localhost:15020/healthz/ready", "200", SidecarQuit.ISTIO_URL, "http://localhost:15000",
            List.of("envoy", "pilot-agent"), List.of(15000, 15001, 15004, 15006, 15008, 15009, 15020, 15021, 15053, 15090),
            List.of(15020, 15000, 15021, 15090)),
    /** Linkerd's proxy: admin 4191, outbound 4140, inbound 4143. */
    LINKERD("Linkerd proxy", "http://localhost:4191/ready", "200-299", "http://localhost:4191/shutdown", null,
            List.of("linkerd2-proxy"), List.of(4140, 4143, 4190, 4191), List.of(4191, 4140, 4143)),
    /** Plain Envoy with its admin API on 9901; never detected: its ports are whatever its configuration says. */
    ENVOY("Envoy proxy", "http://localhost:9901/ready", "200", "http://localhost:9901/quitquitquit", "http://localhost:9901",
            List.of("envoy"), List.of(9901), List.of()),
    /**
     * Istio ambient: no proxy in the pod. ztunnel, on the node, opens these listeners inside the pod's network
     * namespace (ztunnel src/config.rs: outbound 15001, inbound plaintext 15006, inbound HBONE 15008; DNS 15053
     * when DNS capture is on); its own admin, stats and readiness ports stay in ztunnel's pod.
     */
    AMBIENT("ztunnel (Istio ambient)", null, "200", null, null, List.of(), List.of(15001, 15006, 15008, 15053),
            List.of(15001, 15006, 15008));

    /** ztunnel's listeners that must all be in the pod before its traffic can be redirected. */
    public static final List<Integer> ZTUNNEL_LISTENERS = List.of(15001, 15006, 15008);

    private final String title;
    private final String readyUrl;
    private final String expectStatus;
    private final String quitUrl;
    private final String adminUrl;
    private final List<String> proxyProcesses;
    private final List<Integer> proxyPorts;
    private final List<Integer> signature;

    Mesh(String title, String readyUrl, String expectStatus, String quitUrl, String adminUrl, List<String> proxyProcesses,
         List<Integer> proxyPorts, List<Integer> signature) {
        this.title = title;
        this.readyUrl = readyUrl;
        this.expectStatus = expectStatus;
        this.quitUrl = quitUrl;
        this.adminUrl = adminUrl;
        this.proxyProcesses = proxyProcesses;
        this.proxyPorts = proxyPorts;
        this.signature = signature;
    }

    /**
     * What says the data plane is ready: the proxy's readiness URL, or for ambient ztunnel's listeners in the
     * pod's socket table.
     */
    public Target readiness() {
        if (this == AMBIENT) {
            return new Target.Listening(ZTUNNEL_LISTENERS, "ztunnel's listeners (" + ZTUNNEL_LISTENERS.stream()
                    .map(String::valueOf).collect(Collectors.joining(", ")) + ")");
        }
        return Target.parse(readyUrl);
    }

    /**
     * Whether {@code target} is this data plane's own readiness endpoint: http:// on a loopback address, at a port of its
     * proxy or on its readiness path (pilot-agent's status port can be moved). Another loopback endpoint (a Cloud SQL
     * Auth Proxy's, Dapr's) is a dependency, named by its URL.
     */
    public boolean ownEndpoint(Target target) {
        return target.proxyEndpoint() && (proxyPorts.contains(target.port())
                || readyUrl != null && ((Target.Http) target).path().equals(((Target.Http) Target.parse(readyUrl)).path()));
    }

    /** What it is, in words: "Istio sidecar". */
    public String title() {
        return title;
    }

    public String expectStatus() {
        return expectStatus;
    }

    /** Null where there is no proxy in the pod to quit. */
    public String quitUrl() {
        return quitUrl;
    }

    /** Null where the proxy is not Envoy. */
    public String adminUrl() {
        return adminUrl;
    }

    public List<String> proxyProcesses() {
        return proxyProcesses;
    }

    public List<Integer> proxyPorts() {
        return proxyPorts;
    }

    /** The listening ports that tell this data plane apart; empty for one that is never detected. */
    public List<Integer> signature() {
        return signature;
    }
}
