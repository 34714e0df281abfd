package dev.sidecarwait.mesh;

import dev.sidecarwait.Clock;
import dev.sidecarwait.probe.PlainHttp;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Tells the sidecar to exit (Istio: POST /quitquitquit), so a Job's pod can finish once its command has.
 * Failures are logged with a remedy, never thrown: an unreachable sidecar must not change the command's exit
 * code.
 */
public final class SidecarQuit {

    public static final String ISTIO_URL = "http://localhost:15020/quitquitquit";

    private final PlainHttp http;
    private final Consumer<String> info;
    private final Consumer<String> warn;

    /** {@code info} hears what went as it should, {@code warn} what did not. */
    public SidecarQuit(Clock clock, Consumer<String> info, Consumer<String> warn, TlsSettings tls) {
        this.http = new PlainHttp(clock, tls);
        this.info = info;
        this.warn = warn;
    }

    /**
     * POSTs to every URL, each within {@code timeout}, and turns each answer into what to do about it. True when
     * every sidecar accepted, or was already gone (nothing listens: a native sidecar, or one that quit first).
     */
    public boolean post(List<Target.Http> urls, Duration timeout) {
        boolean allDone = true;
        for (Target.Http url : urls) {
            try {
                PlainHttp.Response response = http.send("POST", url, Timeout.of(timeout));
                String answer = "POST " + url.text() + " answered HTTP " + response.status()
                        + (response.bodyLine().isEmpty() ? "" : " (" + response.bodyLine() + ")");
                if (response.status() / 100 == 2) {
                    info.accept("Asked the sidecar to quit: " + answer);
                } else {
                    warn.accept("The sidecar refused to quit: " + answer + "; " + remedy(url, response));
                    allDone = false;
                }
            } catch (ProbeFailure failure) {
                if (failure.getMessage().equals("connection refused")) {
                    info.accept("The sidecar is already gone: POST " + url.text() + ": connection refused (nothing to quit; "
                            + "a Kubernetes native sidecar needs no quit, or check the URL" + refusedHint(url) + ")");
                } else {
                    warn.accept("Could not ask the sidecar to quit: POST " + url.text() + ": " + failure.getMessage());
                    allDone = false;
                }
            }
        }
        return allDone;
    }

    /**
     * Where a sidecar that is still running refuses connections on its quit URL: the Cloud SQL Auth Proxy starts its
     * admin server (localhost:9091) only with --quitquitquit or --debug (cloud-sql-proxy, cmd/root.go).
     */
    static String refusedHint(Target.Http url) {
        return url.port() == 9091 && url.path().equals("/quitquitquit")
                ? "; the Cloud SQL Auth Proxy serves it only when started with --quitquitquit" : "";
    }

    /** What the person should do about a refusal. */
    static String remedy(Target.Http url, PlainHttp.Response response) {
        if (response.status() == 404 && response.body().contains("shutdown endpoint is not enabled")) {
            return "Linkerd's proxy has /shutdown turned off: annotate the workload with "
                    + "config.linkerd.io/proxy-admin-shutdown: enabled";
        }
        if (response.status() == 404 && url.path().equals("/agent/v1/quit")) {
            return "Vault Agent has its quit endpoint turned off: annotate the workload with "
                    + "vault.hashicorp.com/agent-enable-quit: \"true\"";
        }
        if (response.status() == 404) {
            return "no quit endpoint at this URL: check --quit-url or --mesh";
        }
        if (response.status() == 403) {
            return "the endpoint only accepts requests from localhost: use a localhost URL, from inside the pod";
        }
        return "the sidecar keeps running; the pod may not finish until it stops";
    }
}
