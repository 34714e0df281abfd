package dev.sidecarwait.cli;

import dev.sidecarwait.process.SidecarQuit;
import java.util.List;

/**
 * Each mesh's defaults, set at once by --mesh: where readiness is read, which status means ready, where the
 * sidecar is told to quit, where Envoy's admin API answers, and which processes and ports are the proxy's.
 */
enum Mesh {
    ISTIO("http://localhost:15020/healthz/ready", "200", SidecarQuit.ISTIO_URL, "http://localhost:15000",
            List.of("envoy", "pilot-agent"), List.of(15000, 15001, 15004, 15006, 15008, 15009, 15020, 15021, 15053, 15090)),
    LINKERD("http://localhost:4191/ready", "200-299", "http://localhost:4191/shutdown", null,
            List.of("linkerd2-proxy"), List.of(4140, 4143, 4190, 4191)),
    ENVOY("http://localhost:9901/ready", "200", "http://localhost:9901/quitquitquit", "http://localhost:9901",
            List.of("envoy"), List.of(9901));

    final String readyUrl;
    final String expectStatus;
    final String quitUrl;
    /** Null where the proxy is not Envoy. */
    final String adminUrl;
    final List<String> proxyProcesses;
    final List<Integer> proxyPorts;

    Mesh(String readyUrl, String expectStatus, String quitUrl, String adminUrl, List<String> proxyProcesses,
         List<Integer> proxyPorts) {
        this.readyUrl = readyUrl;
        this.expectStatus = expectStatus;
        this.quitUrl = quitUrl;
        this.adminUrl = adminUrl;
        this.proxyProcesses = proxyProcesses;
        this.proxyPorts = proxyPorts;
    }
}
