package dev.sidecarwait.probe;

import java.time.Duration;

/**
 * One look at one target. {@code status} is the HTTP status (0 when there was no HTTP answer), {@code detail}
 * why it is not ready (empty when ready), {@code bodyLine} the first line of the response body.
 */
public record ProbeResult(Target target, boolean ready, int status, String detail, String bodyLine, Duration latency) {
}
