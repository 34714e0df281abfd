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

    /**
     * Requests that overrun the period follow each other at once, and the last one before the deadline is cut to
     * the whole milliseconds left, so it ends less than one before it. No further probe starts then: it would be given a millisecond it does not have (past the deadline), and
     * a probe cut that short fails before it can ask (PodDnsTest's "no time left" instead of the real failure).
     */
    @Test
    void noProbeStartsWithLessThanAMillisecondLeft() throws InterruptedException {
        ScriptedProber prober = new ScriptedProber(Duration.ofHours(1), Duration.ofHours(1));
        Waiter waiter = new Waiter(clock, prober);
        Waiter.Outcome outcome = waiter.await(List.of(proxy), Duration.ofMillis(2500).plusNanos(500_000),
                Duration.ofMillis(500), Duration.ofMillis(1000), failed -> { });
        assertEquals(List.of(Duration.ZERO, Duration.ofMillis(1000), Duration.ofMillis(2000)), prober.startedAt);
        assertEquals(List.of(Duration.ofMillis(1000), Duration.ofMillis(1000), Duration.ofMillis(500)), prober.allowed);
        assertEquals(Duration.ofMillis(2500).plusNanos(500_000), outcome.elapsed(), "it still holds until the deadline");
        assertEquals(3, outcome.attempts().get(proxy));
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

    /** Two targets: only db's thread moves the fake clock (the proxy is ready at once), so the counts are exact. */
    @Test
    void everyTargetMustBeReadyAndReadyOnesAreNotProbedAgain() throws InterruptedException {
        List<String> probed = java.util.Collections.synchronizedList(new ArrayList<>());
        Prober prober = (target, timeout) -> {
            probed.add(target.text());
            boolean ready = target == proxy || clock.elapsed().compareTo(Duration.ofMillis(1000)) >= 0;
            return new ProbeResult(target, ready, 0, ready ? "" : "connection refused", "", Duration.ZERO);
        };
        Waiter.Outcome outcome = await(prober, List.of(proxy, db), 60_000, 500, 500);
        assertTrue(outcome.ready());
        assertEquals(1, probed.stream().filter(proxy.text()::equals).count());
        assertEquals(3, probed.stream().filter(db.text()::equals).count());
        assertEquals(java.util.Map.of(proxy, 1, db, 3), outcome.attempts());
    }

    /**
     * Each target on its own schedule, on the real clock: targets that each hold their request for its whole timeout
     * are all probed from the start, once per period, none waiting for another. One thread of the caller's and one per
     * further target.
     */
    @Test
    void targetsThatHoldTheirRequestsDoNotDelayEachOther() throws InterruptedException {
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            targets.add(Target.parse("redis://10.0.0." + (i + 1) + ":6379"));
        }
        Prober holds = (target, limit) -> {
            try {
                Thread.sleep(limit.millis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ProbeResult(target, false, 0, "request timed out after " + limit.millis() + " ms", "",
                    Duration.ofMillis(limit.millis()));
        };
        Waiter.Outcome outcome = new Waiter(dev.sidecarwait.Clock.SYSTEM, holds).await(targets, Duration.ofSeconds(3),
                Duration.ofMillis(250), Duration.ofMillis(500), failed -> { });
        assertFalse(outcome.ready());
        assertEquals(20, outcome.unready().size());
        for (Target target : targets) {
            // 3 s of 500 ms requests back to back: 6, the last one cut short; a loaded machine may start some late
            assertTrue(outcome.attempts().get(target) >= 4, target + " was probed " + outcome.attempts().get(target) + " times");
        }
    }

    @Test
    void oneTargetThatHoldsLeavesTheOthersReadyAtTheirFirstProbe() throws InterruptedException {
        Target slow = Target.parse("redis://10.0.0.99:6379");
        List<Target> targets = new ArrayList<>(List.of(slow));
        for (int i = 0; i < 19; i++) {
            targets.add(Target.parse("tcp://10.0.0." + (i + 1) + ":5432"));
        }
        Prober prober = (target, limit) -> {
            if (target != slow) {
                return new ProbeResult(target, true, 0, "", "", Duration.ZERO);
            }
            try {
                Thread.sleep(limit.millis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ProbeResult(target, false, 0, "request timed out", "", Duration.ofMillis(limit.millis()));
        };
        Waiter.Outcome outcome = new Waiter(dev.sidecarwait.Clock.SYSTEM, prober).await(targets, Duration.ofSeconds(2),
                Duration.ofMillis(250), Duration.ofMillis(500), failed -> { });
        assertFalse(outcome.ready());
        assertEquals(List.of(slow), outcome.unready().stream().map(ProbeResult::target).toList());
        for (Target target : targets.subList(1, targets.size())) {
            assertEquals(1, outcome.attempts().get(target), target.text());
        }
    }

    @Test
    void reportsOnlyTheTargetsThatNeverBecameReady() throws InterruptedException {
        // db's thread moves the fake clock at once to the deadline: it waits until the proxy has had its probe
        java.util.concurrent.CountDownLatch proxyProbed = new java.util.concurrent.CountDownLatch(1);
        Prober prober = (target, timeout) -> {
            if (target == proxy) {
                proxyProbed.countDown();
            } else {
                try {
                    proxyProbed.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new ProbeResult(target, target == proxy, 0, target == proxy ? "" : "connection refused", "", Duration.ZERO);
        };
        Waiter.Outcome outcome = await(prober, List.of(proxy, db), 1_000, 500, 500);
        assertFalse(outcome.ready());
        assertEquals(1, outcome.unready().size());
        assertEquals(db, outcome.unready().get(0).target());
        assertEquals("connection refused", outcome.unready().get(0).detail());
    }

    /** A target that fails for good (a Job that failed) ends the wait at once, not at its timeout; the prober is told. */
    @Test
    void aTargetThatFailsForGoodEndsTheWaitAtOnce() throws InterruptedException {
        List<String> told = new ArrayList<>();
        Prober failing = new Prober() {
            @Override
            public ProbeResult probe(Target target, Timeout limit) {
                clock.advance(Duration.ofMillis(5));
                return new ProbeResult(target, false, 0, "the Job failed (BackoffLimitExceeded)", "", Duration.ofMillis(5),
                        List.of(), clock.elapsed().compareTo(Duration.ofMillis(1000)) >= 0 ? ProbeResult.Standing.FOR_GOOD
                        : ProbeResult.Standing.MAY_PASS);
            }

            @Override
            public void finished() {
                told.add("finished");
            }
        };
        Waiter.Outcome outcome = await(failing, List.of(proxy), 60_000, 500, 500);
        assertFalse(outcome.ready());
        assertTrue(outcome.unready().get(0).failedForGood());
        assertTrue(outcome.elapsed().compareTo(Duration.ofMillis(1500)) < 0, outcome.elapsed().toString());
        assertEquals(List.of("finished"), told);
    }
}
