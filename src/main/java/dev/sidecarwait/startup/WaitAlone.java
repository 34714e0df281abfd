package dev.sidecarwait.startup;

import dev.sidecarwait.output.Log;
import dev.sidecarwait.process.ForwardedSignals;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * A wait with no command after it (a postStart hook), run on the calling thread with a handler for every signal that
 * would end a process but the real-time ones ({@link ForwardedSignals#installEnding}). Such a signal ends the wait as
 * its default action would end the process, 128+N, but after the wait's last words (the kubelet stops a hook so when
 * the pod is deleted while it waits). The handler runs on the
 * runtime's signal thread: whichever of the wait and a signal ends first says the last words, once, and a signal
 * after the wait has ended only ends the process. No thread of its own and no queue: a hook's memory is charged to
 * its container, and the runtime's signal thread is there already (its exit handlers).
 */
final class WaitAlone {

    /** The last words of a wait a signal ended: the last line and the termination message. */
    interface Stopped {
        void lastWords(String signal, int exitCode);
    }

    private final Log log;
    private final IntConsumer exit;
    private final Supplier<String> awaited;
    private final Stopped stopped;
    private final AtomicBoolean over = new AtomicBoolean();

    WaitAlone(Log log, IntConsumer exit, Supplier<String> awaited, Stopped stopped) {
        this.log = log;
        this.exit = exit;
        this.awaited = awaited;
        this.stopped = stopped;
    }

    /** The wait's exit code; never returns once a signal has ended it (its handler ends the process). */
    int run(Callable<Integer> waitStep) throws Exception {
        List<String> trapped = ForwardedSignals.installEnding(signal -> end(signal.getName(), signal.getNumber()));
        log.debug("These signals end the wait after its last line, exit 128+N: " + String.join(", ", trapped));
        int code = waitStep.call();
        if (!over.compareAndSet(false, true)) {
            Thread.currentThread().join(); // a signal came first: its handler says the last words and ends the process
        }
        return code;
    }

    private void end(String name, int number) {
        if (!ForwardedSignals.endsAWait(name)) {
            log.debug("Received SIG" + name + " while waiting: it would not end a process either; still waiting");
            return;
        }
        if (over.compareAndSet(false, true)) {
            log.warn("Received SIG" + name + " while waiting for " + awaited.get() + ": the wait ends");
            stopped.lastWords(name, 128 + number);
        }
        exit.accept(128 + number);
    }
}
