package dev.sidecarwait.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The drain loop's timing rules on a fake clock. */
class DrainerTest {

    private final FakeClock clock = new FakeClock();
    private final DrainPolicy.Open app = new DrainPolicy.Open(8080, 1, 0, Set.of());
    private final List<Duration> looks = new ArrayList<>();

    private Drainer.Look openUntil(Duration closesAt) {
        return () -> {
            looks.add(clock.elapsed());
            return clock.elapsed().compareTo(closesAt) < 0 ? Reading.holding(List.of(app.toString())) : Reading.clear();
        };
    }

    private Drainer.Outcome drain(Drainer.Look look, long minMs, long timeoutMs, long periodMs) throws InterruptedException {
        return new Drainer(clock, look).drain(Duration.ofMillis(minMs), Duration.ofMillis(timeoutMs),
                Duration.ofMillis(periodMs), reading -> { });
    }

    @Test
    void holdsForMinEvenWhenNothingIsOpen() throws InterruptedException {
        Drainer.Outcome outcome = drain(openUntil(Duration.ZERO), 3000, 30_000, 1000);
        assertTrue(outcome.drained());
        assertEquals(Duration.ofSeconds(3), outcome.elapsed());
    }

    @Test
    void aMinThatIsNotAWholeNumberOfPeriodsEndsOnTime() throws InterruptedException {
        Drainer.Outcome outcome = drain(openUntil(Duration.ZERO), 2500, 30_000, 1000);
        assertEquals(Duration.ofMillis(2500), outcome.elapsed());
    }

    @Test
    void endsAtTheFirstLookAfterEverythingClosed() throws InterruptedException {
        Drainer.Outcome outcome = drain(openUntil(Duration.ofMillis(4200)), 3000, 30_000, 1000);
        assertTrue(outcome.drained());
        assertEquals(Duration.ofSeconds(5), outcome.elapsed());
        assertEquals(6, looks.size());
    }

    @Test
    void givesUpAtTheTimeoutWithWhatWasStillOpen() throws InterruptedException {
        List<Reading> reported = new ArrayList<>();
        Drainer.Outcome outcome = new Drainer(clock, openUntil(Duration.ofHours(1))).drain(Duration.ofSeconds(3),
                Duration.ofMillis(2500), Duration.ofSeconds(1), reported::add);
        assertFalse(outcome.drained());
        assertEquals(Duration.ofMillis(2500), outcome.elapsed());
        assertEquals(List.of("port 8080 LISTEN"), outcome.last().holding());
        assertEquals(3, reported.size(), "one report per look before the last");
    }

    @Test
    void anUnknownReadingIsReportedAndNeverCountsAsDrained() throws InterruptedException {
        List<Reading> reported = new ArrayList<>();
        Drainer.Look broken = () -> Reading.unknown("/proc/net/tcp: permission denied");
        Drainer.Outcome outcome = new Drainer(clock, broken).drain(Duration.ZERO, Duration.ofSeconds(2),
                Duration.ofSeconds(1), reported::add);
        assertFalse(outcome.drained());
        assertEquals(2, reported.size(), "two looks heard, the third ended the drain");
        assertEquals("unknown: /proc/net/tcp: permission denied", outcome.last().toString());
    }

    @Test
    void bothAreDrainedOnlyWhenEachIs() {
        Reading open = Reading.holding(List.of("port 8080 LISTEN"));
        Reading unknown = Reading.unknown("Envoy's admin API is not answering");
        assertTrue(Reading.both(Reading.clear(), Reading.clear()).drained());
        assertFalse(Reading.both(Reading.clear(), open).drained());
        assertFalse(Reading.both(unknown, Reading.clear()).drained());
        assertEquals("port 8080 LISTEN; unknown: Envoy's admin API is not answering", Reading.both(unknown, open).toString());
    }
}
