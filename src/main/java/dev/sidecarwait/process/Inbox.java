package dev.sidecarwait.process;

import dev.sidecarwait.output.Log;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What the supervisor learns, in the order it came: a signal, the wait's end, the command's exit. On the JVM each comes
 * from a thread of its own (sun.misc.Signal's, the wait's, the JDK's process reaper) into a queue. In the native
 * binary the thread that supervises takes signals itself, from a pipe (a caught signal's number as one byte,
 * {@link SignalPipe}), and learns of the command's exit by SIGCHLD and waitpid ({@link NativeChild}): no thread of the
 * runtime's or the JDK's waits while the command runs.
 */
final class Inbox {

    sealed interface Event permits SignalReceived, WaitFinished, CommandExited {
    }

    record SignalReceived(String name, int number) implements Event {
    }

    record WaitFinished(int code) implements Event {
    }

    record CommandExited(int code) implements Event {
    }

    private static final int SIGCHLD = 17; // Linux's, on amd64 and arm64 alike

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Log log;
    private final SignalPipe pipe;
    private final Map<Integer, String> caught = new HashMap<>();
    private long child = -1;

    Inbox(Log log) {
        this.log = log;
        this.pipe = NativeImage.RUNTIME ? SignalPipe.open() : null;
    }

    /**
     * Takes every signal the wrapper passes on ({@link ForwardedSignals#NAMES}) that this runtime lets it take, and
     * in the native binary SIGCHLD; returns the names of those it took.
     */
    List<String> takeSignals() {
        if (pipe == null) {
            return ForwardedSignals.install(signal -> add(new SignalReceived(signal.getName(), signal.getNumber())));
        }
        pipe.take(SIGCHLD);
        List<String> taken = new ArrayList<>();
        for (String name : ForwardedSignals.NAMES) {
            int number = ForwardedSignals.number(name);
            if (number > 0 && pipe.take(number)) {
                caught.put(number, name);
                taken.add(name);
            }
        }
        return taken;
    }

    /** From any thread. */
    void add(Event event) {
        events.add(event);
        if (pipe != null) {
            pipe.wake();
        }
    }

    /** In the native binary, the command's pid, whose exit SIGCHLD tells; on the JVM the caller adds its exit. */
    void watch(long pid) {
        this.child = pid;
        if (pipe != null) {
            reaped(); // it may have ended before this
        }
    }

    /** The next event: at once when {@code millis} is 0, within {@code millis}, or whenever it comes (-1); null when none came. */
    Event next(int millis) throws InterruptedException {
        if (pipe == null) {
            return millis < 0 ? events.take() : events.poll(millis, TimeUnit.MILLISECONDS);
        }
        Event event = events.poll();
        while (event == null) {
            int number = pipe.next(millis);
            if (number == SIGCHLD) {
                reaped();
            } else if (number > 0) {
                events.add(new SignalReceived(caught.getOrDefault(number, Integer.toString(number)), number));
            } else if (number < 0 && millis >= 0) {
                return events.poll();
            }
            event = events.poll();
        }
        return event;
    }

    private void reaped() {
        int code = NativeChild.reap(child, log);
        if (code >= 0) {
            events.add(new CommandExited(code));
        }
    }
}
