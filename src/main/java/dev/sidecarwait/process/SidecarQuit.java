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
 * Failures are logged, never thrown: an unreachable sidecar must not change the command's exit code.
 */
public final class SidecarQuit {

    public static final String ISTIO_URL = "http://localhost:15020/quitquitquit";

    private final PlainHttp http;
    private final Log log;

    public SidecarQuit(Clock clock, Log log) {
        this.http = new PlainHttp(clock);
        this.log = log;
    }

    /** POSTs to every URL, each within {@code timeout}; true when every one answered 2xx. */
    public boolean post(List<Target.Http> urls, Duration timeout) {
        boolean allAccepted = true;
        for (Target.Http url : urls) {
            try {
                PlainHttp.Response response = http.send("POST", url, Timeout.of(timeout));
                boolean accepted = response.status() / 100 == 2;
                String answer = "POST " + url.text() + " answered HTTP " + response.status()
                        + (response.bodyLine().isEmpty() ? "" : " (" + response.bodyLine() + ")");
                if (accepted) {
                    log.info("Asked the sidecar to quit: " + answer);
                } else {
                    log.warn("The sidecar refused to quit: " + answer);
                }
                allAccepted &= accepted;
            } catch (ProbeFailure failure) {
                log.warn("Could not ask the sidecar to quit: POST " + url.text() + ": " + failure.getMessage());
                allAccepted = false;
            }
        }
        return allAccepted;
    }
}
