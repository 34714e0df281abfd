package dev.sidecarwait.drain;

import dev.sidecarwait.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Holds shutdown until a look finds nothing open, and for at least {@code min}; gives up after
 * {@code timeout}. Looks once per period. A look that cannot tell (unknown) never counts as drained.
 */
public final class Drainer {

    /** Looks once; never throws: trouble reading is an unknown {@link Reading}. */
    public interface Look {
        Reading look();
    }

    /** How the drain ended: drained or not, and the last look. */
    public record Outcome(boolean drained, Reading last, Duration elapsed) {
    }

    private final Clock clock;
    private final Look look;

    public Drainer(Clock clock, Look look) {
        this.clock = clock;
        this.look = look;
    }

    /** {@code onLook} hears every look that does not end the drain. */
    public Outcome drain(Duration min, Duration timeout, Duration period, Consumer<Reading> onLook)
            throws InterruptedException {
        long start = clock.nanoTime();
        long minEnd = start + min.toNanos();
        long deadline = start + timeout.toNanos();
        long lookAt = start;
        while (true) {
            Reading reading = look.look();
            long now = clock.nanoTime();
            if (reading.drained() && now >= minEnd) {
                return new Outcome(true, reading, Duration.ofNanos(now - start));
            }
            if (now >= deadline) {
                return new Outcome(false, reading, Duration.ofNanos(now - start));
            }
            onLook.accept(reading);
            lookAt = Math.max(lookAt + period.toNanos(), now);
            long next = Math.min(lookAt, deadline);
            if (reading.drained()) {
                next = Math.min(next, minEnd); // already drained: look again exactly when --min is up
            }
            clock.sleep(Duration.ofNanos(Math.max(0, next - now)));
        }
    }
}
