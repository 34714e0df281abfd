package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Polls every target until all are ready or the timeout passes. The first round goes out at once, then one
 * round per period, start to start; no request may run past the overall deadline. One Waiter per wait: it
 * keeps the wait's progress, which another thread may read at any time (a signal ends a wait midway).
 */
public final class Waiter {

    /**
     * How a wait ended, or how far it got: ready or not, the last result of each target not (yet) ready, and
     * how many attempts each target took, in the order given.
     */
    public record Outcome(boolean ready, List<ProbeResult> unready, Map<Target, Integer> attempts, Duration elapsed) {
    }

    private final Clock clock;
    private final Prober prober;
    private final Map<Target, ProbeResult> pending = new LinkedHashMap<>();
    private final Map<Target, Integer> attempts = new LinkedHashMap<>();
    private long start;

    public Waiter(Clock clock, Prober prober) {
        this.clock = clock;
        this.prober = prober;
    }

    public Outcome await(List<Target> targets, Duration timeout, Duration period, Duration requestTimeout,
                         Consumer<ProbeResult> onFailedAttempt) throws InterruptedException {
        long deadline;
        synchronized (this) {
            start = clock.nanoTime();
            deadline = start + timeout.toNanos();
            for (Target target : targets) {
                pending.put(target, null);
                attempts.put(target, 0);
            }
        }
        long roundStart = start;
        while (true) {
            for (Target target : snapshotOfPending()) {
                long left = deadline - clock.nanoTime();
                if (left <= 0) {
                    break;
                }
                ProbeResult result = prober.probe(target, Timeout.within(requestTimeout, Duration.ofNanos(left)));
                record(target, result);
                if (!result.ready()) {
                    onFailedAttempt.accept(result);
                }
            }
            long now = clock.nanoTime();
            synchronized (this) {
                if (pending.isEmpty()) {
                    return progress(true, "");
                }
            }
            // Start to start; a round that overran its period is followed at once, never by a catch-up burst.
            long nextRound = Math.max(roundStart + period.toNanos(), now);
            if (nextRound >= deadline) {
                // No further round fits: hold until the deadline so a timeout always means "waited that long".
                clock.sleep(Duration.ofNanos(Math.max(0, deadline - now)));
                return progress(false, "not probed before the timeout");
            }
            clock.sleep(Duration.ofNanos(nextRound - now));
            roundStart = nextRound;
        }
    }

    /** How far the wait has got: safe to call from another thread while it runs. */
    public synchronized Outcome progress() {
        return progress(pending.isEmpty() && !attempts.isEmpty(), "not probed yet");
    }

    private synchronized Outcome progress(boolean ready, String unprobed) {
        List<ProbeResult> unready = new ArrayList<>();
        for (Map.Entry<Target, ProbeResult> entry : pending.entrySet()) {
            ProbeResult last = entry.getValue();
            unready.add(last != null ? last
                    : new ProbeResult(entry.getKey(), false, 0, unprobed, "", Duration.ZERO));
        }
        Duration elapsed = attempts.isEmpty() ? Duration.ZERO : Duration.ofNanos(clock.nanoTime() - start);
        return new Outcome(ready, unready, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attempts)), elapsed);
    }

    private synchronized List<Target> snapshotOfPending() {
        return new ArrayList<>(pending.keySet());
    }

    private synchronized void record(Target target, ProbeResult result) {
        attempts.merge(target, 1, Integer::sum);
        if (result.ready()) {
            pending.remove(target);
        } else {
            pending.put(target, result);
        }
    }
}
