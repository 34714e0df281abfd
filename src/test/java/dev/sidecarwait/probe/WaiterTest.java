package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.FakeClock;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop's timing rules, on a fake clock so they can be checked exactly. */
class WaiterTest {

    private final FakeClock clock = new FakeClock();
    private final Target proxy = Target.parse("http://localhost:15020/healthz/ready");
    private final Target db = Target.parse("tcp://localhost:5432");

    /** A prober that becomes ready at a set time and takes a set time per request (never more than allowed). */
    private final class ScriptedProber implements Prober {
        final List<Duration> startedAt = new ArrayList<>();
        final List<Duration> allowed = new ArrayList<>();
        final List<Boolean> overall = new ArrayList<>();
        final Duration readyAt;
        final Duration latency;

        ScriptedProber(Duration readyAt, Duration latency) {
            this.readyAt = readyAt;
            this.latency = latency;
        }

        @Override
        public ProbeResult probe(Target target, Timeout limit) {
            Duration timeout = Duration.ofMillis(limit.millis());
            overall.add(limit.overall());
            startedAt.add(clock.elapsed());
            allowed.add(timeout);
            boolean hangs = latency.compareTo(timeout) > 0;
            clock.advance(hangs ? timeout : latency);
            boolean ready = !hangs && clock.elapsed().compareTo(readyAt) >= 0;
            return new ProbeResult(target, ready, ready ? 200 : 503, ready ? "" : "HTTP status code 503", "", latency);
        }
    }

    private Waiter.Outcome await(Prober prober, List<Target> targets, long timeoutMs, long periodMs, long requestMs)
            throws InterruptedException {
        return new Waiter(clock, prober).await(targets, Duration.ofMillis(timeoutMs), Duration.ofMillis(periodMs),
                Duration.ofMillis(requestMs), failed -> { });
    }

    @Test
    void firstProbeGoesOutAtOnce() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ZERO, Duration.ofMillis(3));
        Waiter.Outcome outcome = await(prober, List.of(proxy), 60_000, 500, 500);
        assertTrue(outcome.ready());
        assertEquals(List.of(Duration.ZERO), prober.startedAt);
        assertEquals(Duration.ofMillis(3), outcome.elapsed());
    }

    @Test
    void probesOncePerPeriodStartToStart() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ofMillis(1600), Duration.ofMillis(100));
        assertTrue(await(prober, List.of(proxy), 60_000, 500, 500).ready());
        assertEquals(List.of(Duration.ZERO, Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofMillis(1500)),
                prober.startedAt);
    }

    @Test
    void aRoundThatOverrunsIsFollowedAtOnceWithoutABurst() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ofHours(1), Duration.ofMillis(300));
        await(prober, List.of(proxy), 1_000, 200, 500);
        assertEquals(List.of(Duration.ZERO, Duration.ofMillis(300), Duration.ofMillis(600), Duration.ofMillis(900)),
                prober.startedAt);
    }

    @Test
    void aHungRequestNeverStretchesTheTimeout() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ofHours(1), Duration.ofHours(1));
        Waiter.Outcome outcome = await(prober, List.of(proxy), 1_200, 500, 500);
        assertFalse(outcome.ready());
        assertEquals(Duration.ofMillis(1200), outcome.elapsed());
        // the last request only got what was left of the timeout
        assertEquals(List.of(Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofMillis(200)), prober.allowed);
        assertEquals(List.of(false, false, true), prober.overall, "only the last one was cut short by the overall timeout");
        assertEquals(3, outcome.attempts().get(proxy));
    }

    @Test
    void aTimeoutWaitsTheWholeTimeoutAndKeepsTheLastError() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ofHours(1), Duration.ofMillis(1));
        Waiter.Outcome outcome = await(prober, List.of(proxy), 2_000, 500, 500);
        assertFalse(outcome.ready());
        assertEquals(Duration.ofMillis(2000), outcome.elapsed());
        assertEquals(4, prober.startedAt.size());
        assertEquals("HTTP status code 503", outcome.unready().get(0).detail());
    }

    @Test
    void everyTargetMustBeReadyAndReadyOnesAreNotProbedAgain() throws InterruptedException {
        List<String> probed = new ArrayList<>();
        Prober prober = (target, timeout) -> {
            probed.add(target.text());
            boolean ready = target == proxy || clock.elapsed().compareTo(Duration.ofMillis(1000)) >= 0;
            return new ProbeResult(target, ready, 0, ready ? "" : "connection refused", "", Duration.ZERO);
        };
        assertTrue(await(prober, List.of(proxy, db), 60_000, 500, 500).ready());
        assertEquals(List.of(proxy.text(), db.text(), db.text(), db.text()), probed);
    }

    @Test
    void reportsOnlyTheTargetsThatNeverBecameReady() throws InterruptedException {
        Prober prober = (target, timeout) -> new ProbeResult(target, target == proxy, 0,
                target == proxy ? "" : "connection refused", "", Duration.ZERO);
        Waiter.Outcome outcome = await(prober, List.of(proxy, db), 1_000, 500, 500);
        assertFalse(outcome.ready());
        assertEquals(1, outcome.unready().size());
        assertEquals(db, outcome.unready().get(0).target());
        assertEquals("connection refused", outcome.unready().get(0).detail());
    }
}
