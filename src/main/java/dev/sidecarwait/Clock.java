package dev.sidecarwait;

import java.time.Duration;
import java.time.Instant;

/** Time as the tool sees it: passed in everywhere so tests can control it. */
public interface Clock {

    /** Monotonic nanoseconds, for deadlines and periods. */
    long nanoTime();

    /** Whole milliseconds until {@code deadlineNanos}: at least 1 while any time is left, 0 once it has passed. */
    default long millisUntil(long deadlineNanos) {
        long left = deadlineNanos - nanoTime();
        return left <= 0 ? 0 : Math.max(1, left / 1_000_000);
    }

    /** Wall-clock time, for log lines only. */
    Instant now();

    void sleep(Duration duration) throws InterruptedException;

    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            if (!duration.isNegative() && !duration.isZero()) {
                Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
            }
        }
    };
}
