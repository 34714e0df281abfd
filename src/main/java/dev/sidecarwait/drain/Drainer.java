package dev.sidecarwait.drain;

import dev.sidecarwait.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Holds shutdown until nothing the policy counts is open, and for at least {@code min}; gives up after
 * {@code timeout}. Looks once per period.
 */
public final class Drainer {

    /** Reads the sockets once; a failure to read is reported, not fatal. */
    public interface Look {
        List<DrainPolicy.Open> stillOpen() throws IOException;
    }

    /** How the drain ended: drained or not, and what was open at the last look. */
    public record Outcome(boolean drained, List<DrainPolicy.Open> open, Duration elapsed) {
    }

    private final Clock clock;
    private final Look look;

    public Drainer(Clock clock, Look look) {
        this.clock = clock;
        this.look = look;
    }

    public Outcome drain(Duration min, Duration timeout, Duration period, Consumer<List<DrainPolicy.Open>> onStillOpen,
                         Consumer<String> onReadFailure) throws InterruptedException {
        long start = clock.nanoTime();
        long minEnd = start + min.toNanos();
        long deadline = start + timeout.toNanos();
        long lookAt = start;
        while (true) {
            List<DrainPolicy.Open> open;
            try {
                open = look.stillOpen();
            } catch (IOException e) {
                onReadFailure.accept(e.getMessage());
                open = null;
            }
            long now = clock.nanoTime();
            if (open != null && open.isEmpty() && now >= minEnd) {
                return new Outcome(true, open, Duration.ofNanos(now - start));
            }
            if (now >= deadline) {
                return new Outcome(false, open == null ? List.of() : open, Duration.ofNanos(now - start));
            }
            if (open != null && !open.isEmpty()) {
                onStillOpen.accept(open);
            }
            lookAt = Math.max(lookAt + period.toNanos(), now);
            long next = Math.min(lookAt, deadline);
            if (open != null && open.isEmpty()) {
                next = Math.min(next, minEnd); // already drained: look again exactly when --min is up
            }
            clock.sleep(Duration.ofNanos(Math.max(0, next - now)));
        }
    }
}
