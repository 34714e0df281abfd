package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Polls every target until all are ready or the timeout passes, each target on its own schedule: its first probe
 * goes out at once, then one per period, start to start, whatever the others are doing, so a target that holds its
 * connection for the whole request timeout delays only itself, and the wait is ready at the slowest target's time
 * plus at most one period. No request may run past the overall deadline. The first target is probed on the calling
 * thread, each other one on a thread of its own. One Waiter per wait: it keeps the wait's progress, which another
 * thread may read at any time (a signal ends a wait midway). A target that fails for good (a Job that failed) ends
 * the wait: the others stop at their next attempt.
 */
public final class Waiter {

    /** Each further target's thread: a probe needs little stack (the JVM's default is 1 MiB, reserved, not used). */
    static final long PROBE_THREAD_STACK = 256 * 1024;
    /** How long past the deadline the wait waits for a target's thread before it ends without it. */
    static final long JOIN_GRACE_MILLIS = 1000;

    /**
     * How a wait ended, or how far it got: ready or not, the last result of each target not (yet) ready, and
     * how many attempts each target took, in the order given. A plain class: a record's methods would be code in the
     * binary that nothing calls.
     */
    public static final class Outcome {
        private final boolean ready;
        private final List<ProbeResult> unready;
        private final Map<Target, Integer> attempts;
        private final Duration elapsed;

        public Outcome(boolean ready, List<ProbeResult> unready, Map<Target, Integer> attempts, Duration elapsed) {
            this.ready = ready;
            this.unready = unready;
            this.attempts = attempts;
            this.elapsed = elapsed;
        }

        public boolean ready() {
            return ready;
        }

        public List<ProbeResult> unready() {
            return unready;
        }

        public Map<Target, Integer> attempts() {
            return attempts;
        }

        public Duration elapsed() {
            return elapsed;
        }
    }

    private final Clock clock;
    private final Prober prober;
    private final Map<Target, ProbeResult> pending = new LinkedHashMap<>();
    private final Map<Target, ProbeResult> ready = new LinkedHashMap<>();
    private final Map<Target, Integer> attempts = new LinkedHashMap<>();
    private long start;
    private volatile boolean failedForGood;

    public Waiter(Clock clock, Prober prober) {
        this.clock = clock;
        this.prober = prober;
    }

    /** {@code onFailedAttempt} is called from each target's thread, so it may be called by two at once. */
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
        List<Thread> others = new ArrayList<>();
        AtomicReference<RuntimeException> broken = new AtomicReference<>();
        for (Target target : targets.subList(Math.min(1, targets.size()), targets.size())) {
            Thread thread = new Thread(null, () -> {
                try {
                    schedule(target, deadline, period, requestTimeout, onFailedAttempt);
                } catch (InterruptedException stopped) {
                    // the wait was ended: this target's schedule ends with it
                } catch (RuntimeException bug) {
                    broken.compareAndSet(null, bug);
                }
            }, "probe " + target.text(), PROBE_THREAD_STACK);
            thread.setDaemon(true); // never keeps the process alive after the wait has ended
            others.add(thread);
        }
        try {
            others.forEach(Thread::start);
            if (!targets.isEmpty()) {
                schedule(targets.get(0), deadline, period, requestTimeout, onFailedAttempt);
            }
            for (Thread thread : others) {
                // no request runs past the deadline; the grace covers a probe that still had to close its connection
                thread.join(Math.max(1, clock.millisUntil(deadline) + JOIN_GRACE_MILLIS));
            }
        } finally {
            others.forEach(Thread::interrupt); // a wait ended by a signal ends every schedule, at its next pause
            prober.finished();
        }
        if (broken.get() != null) {
            throw broken.get();
        }
        return progress(isReady(), "not probed before the timeout");
    }

    /**
     * One target's schedule: a probe at once, then one per period, start to start; a probe that overran its period
     * is followed at once, never by a catch-up burst. Not ready when no further probe fits: it holds until the
     * deadline, so that a timeout always means "waited that long".
     */
    private void schedule(Target target, long deadline, Duration period, Duration requestTimeout,
                          Consumer<ProbeResult> onFailedAttempt) throws InterruptedException {
        long attemptStart = clock.nanoTime();
        while (!failedForGood) {
            long left = deadline - clock.nanoTime();
            if (left < Timeout.LEAST.toNanos()) {
                // A request is given at least that long: with less left, one would run past the deadline and, cut
                // short before it asked anything, replace the last real failure with "no time left".
                clock.sleep(Duration.ofNanos(Math.max(0, left)));
                return;
            }
            ProbeResult result = prober.probe(target, Timeout.within(requestTimeout, Duration.ofNanos(left)));
            record(target, result);
            if (result.ready()) {
                return;
            }
            if (result.failedForGood()) {
                failedForGood = true; // every other schedule ends at its next turn
                return;
            }
            onFailedAttempt.accept(result);
            long now = clock.nanoTime();
            long next = Math.max(attemptStart + period.toNanos(), now);
            if (next >= deadline) {
                clock.sleep(Duration.ofNanos(Math.max(0, deadline - now)));
                return;
            }
            clock.sleep(Duration.ofNanos(next - now));
            attemptStart = next;
        }
    }

    private synchronized boolean isReady() {
        return pending.isEmpty();
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

    /** The result that made each target ready, in the order they became so. */
    public synchronized List<ProbeResult> readyResults() {
        return List.copyOf(ready.values());
    }

    /**
     * An attempt cut short by the overall deadline says less than the one before it (a 503, a refusal): the last words
     * of a wait that timed out are the last the target really said.
     */
    private synchronized void record(Target target, ProbeResult result) {
        attempts.merge(target, 1, Integer::sum);
        if (result.ready()) {
            pending.remove(target);
            ready.put(target, result);
        } else if (!(pending.get(target) != null && result.detail().startsWith(Timeout.OVERALL))) {
            pending.put(target, result);
        }
    }
}
