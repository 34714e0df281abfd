package dev.sidecarwait;

import java.time.Duration;
import java.time.Instant;

/** A clock that only moves when told to: sleeping advances it at once. */
public final class FakeClock implements Clock {

    private long nanos;

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public Instant now() {
        return Instant.ofEpochSecond(1_700_000_000L).plusNanos(nanos);
    }

    @Override
    public void sleep(Duration duration) {
        advance(duration);
    }

    public void advance(Duration duration) {
        nanos += duration.toNanos();
    }

    public Duration elapsed() {
        return Duration.ofNanos(nanos);
    }
}
