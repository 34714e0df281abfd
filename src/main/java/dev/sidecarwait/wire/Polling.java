package dev.sidecarwait.wire;

import dev.sidecarwait.Clock;
import java.time.Duration;

/**
 * How a channel that never blocks is looked at again: after 1, 2, 4 and 8 ms, then every 16 ms, never past a deadline.
 * Cheaper in the native binary than a timed blocking read on a channel (which needs the channel's socket adaptor) or
 * a Selector, for the few milliseconds a local peer takes to answer.
 */
public final class Polling {

    private static final long MAX_PAUSE_MILLIS = 16;

    private final Clock clock;
    private long pause = 1;

    public Polling(Clock clock) {
        this.clock = clock;
    }

    /** Sleeps the next pause, cut short at {@code deadlineNanos}. */
    public void pause(long deadlineNanos) throws InterruptedException {
        clock.sleep(Duration.ofMillis(Math.min(pause, clock.millisUntil(deadlineNanos))));
        pause = Math.min(pause * 2, MAX_PAUSE_MILLIS);
    }

    /** Something arrived: the next wait starts short again. */
    public void reset() {
        pause = 1;
    }
}
