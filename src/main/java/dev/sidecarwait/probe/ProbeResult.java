package dev.sidecarwait.probe;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

/**
 * One look at one target. {@code status} is the HTTP status (0 when there was no HTTP answer), {@code detail}
 * why it is not ready (empty when ready), {@code bodyLine} the first line of the response body, {@code addresses}
 * what the target's name resolved to (empty when it did not, or was not looked up), {@code standing} how long a
 * failure stands.
 */
public record ProbeResult(Target target, boolean ready, int status, String detail, String bodyLine, Duration latency,
                          List<InetAddress> addresses, Standing standing) {

    /**
     * How long a failure stands: it may pass at the next attempt; it lasts until someone changes the cluster (the API
     * server refusing: 401, 403, 404), so the log says it once without --verbose; or the target will never be ready
     * (a Job that has failed), and the wait ends at once.
     */
    public enum Standing { MAY_PASS, LASTING, FOR_GOOD }

    public ProbeResult {
        addresses = List.copyOf(addresses);
    }

    public ProbeResult(Target target, boolean ready, int status, String detail, String bodyLine, Duration latency,
                       List<InetAddress> addresses) {
        this(target, ready, status, detail, bodyLine, latency, addresses, Standing.MAY_PASS);
    }

    public ProbeResult(Target target, boolean ready, int status, String detail, String bodyLine, Duration latency) {
        this(target, ready, status, detail, bodyLine, latency, List.of());
    }

    public boolean failedForGood() {
        return standing == Standing.FOR_GOOD;
    }
}
