package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Polls every target until all are ready or the timeout passes. The first round goes out at once, then one
 * round per period, start to start; no request may run past the overall deadline.
 */
public final class Waiter {

    /**
     * How a wait ended: ready, or not, with the last result of each target that never became ready, and how
     * many attempts each target took (in the order given).
     */
    public record Outcome(boolean ready, List<ProbeResult> unready, Map<Target, Integer> attempts, Duration elapsed) {
    }

    private final Clock clock;
    private final Prober prober;

    public Waiter(Clock clock, Prober prober) {
        this.clock = clock;
        this.prober = prober;
    }

    public Outcome await(List<Target> targets, Duration timeout, Duration period, Duration requestTimeout,
                         Consumer<ProbeResult> onFailedAttempt) throws InterruptedException {
        long start = clock.nanoTime();
        long deadline = start + timeout.toNanos();
        Map<Target, ProbeResult> pending = new LinkedHashMap<>();
        Map<Target, Integer> attempts = new LinkedHashMap<>();
        for (Target target : targets) {
            pending.put(target, null);
            attempts.put(target, 0);
        }
        long roundStart = start;
        while (true) {
            for (Target target : new ArrayList<>(pending.keySet())) {
                long left = deadline - clock.nanoTime();
                if (left <= 0) {
                    break;
                }
                ProbeResult result = prober.probe(target, Timeout.within(requestTimeout, Duration.ofNanos(left)));
                attempts.merge(target, 1, Integer::sum);
                if (result.ready()) {
                    pending.remove(target);
                } else {
                    pending.put(target, result);
                    onFailedAttempt.accept(result);
                }
            }
            long now = clock.nanoTime();
            if (pending.isEmpty()) {
                return new Outcome(true, List.of(), attempts, Duration.ofNanos(now - start));
            }
            // Start to start; a round that overran its period is followed at once, never by a catch-up burst.
            long nextRound = Math.max(roundStart + period.toNanos(), now);
            if (nextRound >= deadline) {
                // No further round fits: hold until the deadline so a timeout always means "waited that long".
                clock.sleep(Duration.ofNanos(Math.max(0, deadline - now)));
                return new Outcome(false, unready(pending), attempts, Duration.ofNanos(clock.nanoTime() - start));
            }
            clock.sleep(Duration.ofNanos(nextRound - now));
            roundStart = nextRound;
        }
    }

    private static List<ProbeResult> unready(Map<Target, ProbeResult> pending) {
        List<ProbeResult> results = new ArrayList<>();
        for (Map.Entry<Target, ProbeResult> entry : pending.entrySet()) {
            ProbeResult last = entry.getValue();
            results.add(last != null ? last
                    : new ProbeResult(entry.getKey(), false, 0, "not probed before the timeout", "", Duration.ZERO));
        }
        return results;
    }
}
