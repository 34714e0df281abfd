package dev.sidecarwait.process;

import dev.sidecarwait.Clock;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.PlainHttp;
import dev.sidecarwait.probe.ProbeFailure;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Timeout;
import java.time.Duration;
import java.util.List;

/**
 * Tells the sidecar to exit (Istio: POST /quitquitquit), so a Job's pod can finish once its command has.
 * Failures are logged with a remedy, never thrown: an unreachable sidecar must not change the command's exit
 * code.
 */
public final class SidecarQuit {

    public static final String ISTIO_URL = "http://localhost:15020/quitquitquit";

    private final PlainHttp http;
    private final Log log;

    public SidecarQuit(Clock clock, Log log) {
        this.http = new PlainHttp(clock);
        this.log = log;
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
                    log.info("Asked the sidecar to quit: " + answer);
                } else {
                    log.warn("The sidecar refused to quit: " + answer + "; " + remedy(response));
                    allDone = false;
                }
            } catch (ProbeFailure failure) {
                if (failure.getMessage().equals("connection refused")) {
                    log.info("The sidecar is already gone: POST " + url.text() + ": connection refused (nothing to quit; "
                            + "a Kubernetes native sidecar needs no quit, or check the URL)");
                } else {
                    log.warn("Could not ask the sidecar to quit: POST " + url.text() + ": " + failure.getMessage());
                    allDone = false;
                }
            }
        }
        return allDone;
    }

    /** What the person should do about a refusal. */
    static String remedy(PlainHttp.Response response) {
        if (response.status() == 404 && response.body().contains("shutdown endpoint is not enabled")) {
            return "Linkerd's proxy has /shutdown turned off: annotate the workload with "
                    + "config.linkerd.io/proxy-admin-shutdown: enabled";
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
