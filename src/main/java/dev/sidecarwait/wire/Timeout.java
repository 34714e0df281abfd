package dev.sidecarwait.wire;

import java.time.Duration;

/**
 * How long one exchange may take, and why: the request timeout, or what was left of the overall one (then a
 * cut-short request says so instead of naming an odd number of milliseconds).
 */
public record Timeout(long millis, boolean overall) {

    /** How a request cut short by the overall deadline ends. */
    public static final String OVERALL = "no answer before the overall timeout";

    /** The least a request is given: a millisecond, even when less is left. */
    public static final Duration LEAST = Duration.ofMillis(1);

    public Timeout {
        millis = Math.max(LEAST.toMillis(), millis);
    }

    public static Timeout of(Duration requestTimeout) {
        return new Timeout(requestTimeout.toMillis(), false);
    }

    /** The request timeout, or what is left before the overall deadline when that is less. */
    public static Timeout within(Duration requestTimeout, Duration left) {
        return left.compareTo(requestTimeout) < 0 ? new Timeout(left.toMillis(), true) : of(requestTimeout);
    }

    public Duration duration() {
        return Duration.ofMillis(millis);
    }

    public ProbeFailure failure() {
        return new ProbeFailure(overall ? OVERALL : "request timed out after " + millis + " ms");
    }
}
