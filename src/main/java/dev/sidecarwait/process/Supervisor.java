package dev.sidecarwait.process;

import dev.sidecarwait.output.Log;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The wrapper as a container's main process: waits, then runs the command with this process's stdin, stdout,
 * stderr, environment and working directory, passes signals on, and stays until the command has exited.
 * Everything that happens (a signal, the wait's end, the command's exit) is an event on one queue, handled in
 * order on one thread, so a signal is never lost between the wait and the start.
 */
public final class Supervisor {

    private sealed interface Event permits SignalReceived, WaitFinished, CommandExited {
    }

    private record SignalReceived(String name, int number) implements Event {
    }

    private record WaitFinished(int code) implements Event {
    }

    private record CommandExited(int code) implements Event {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Log log;
    private final ChildSignaller signaller;
    private final OrphanReaper reaper;

    public Supervisor(Log log, ChildSignaller signaller) {
        this.log = log;
        this.signaller = signaller;
        this.reaper = new OrphanReaper(log);
    }

    /** Called from a signal handler thread. */
    public void signal(String name, int number) {
        events.add(new SignalReceived(name, number));
    }

    /**
     * Runs {@code waitStep} (exit-code semantics: 0 means go on), then the command. Returns the command's exit
     * code; the wait's when it did not end in 0; 128+N when signal N ended the wait; 127 or 126 when the
     * command could not be started.
     */
    public int run(Callable<Integer> waitStep, List<String> command) throws InterruptedException {
        Thread waiting = new Thread(() -> events.add(new WaitFinished(callSafely(waitStep))), "wait");
        waiting.setDaemon(true); // a signal may end the wait while a request is still in flight
        waiting.start();

        Event first = events.take();
        if (first instanceof SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }
        int waited = ((WaitFinished) first).code();
        if (waited != 0) {
            log.error("Not starting " + command.get(0) + ": the wait did not succeed (exit code " + waited + ")");
            return waited;
        }
        Event raced = events.poll();
        if (raced instanceof SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }

        Process child;
        try {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException e) {
            return cannotStart(command.get(0), e);
        }
        log.info("Started " + String.join(" ", command) + " (pid " + child.pid() + ")");
        reaper.startIfPidOne(child);
        child.onExit().thenAccept(exited -> events.add(new CommandExited(exited.exitValue())));

        while (true) {
            Event event = events.take();
            if (event instanceof SignalReceived signal) {
                forward(child, signal);
            } else if (event instanceof CommandExited exited) {
                log.info(command.get(0) + " exited with code " + exited.code());
                return exited.code();
            }
        }
    }

    private int callSafely(Callable<Integer> waitStep) {
        try {
            return waitStep.call();
        } catch (Exception e) {
            log.error("The wait failed: " + e);
            return 70;
        }
    }

    private int stoppedWhileWaiting(SignalReceived signal) {
        log.warn("Received SIG" + signal.name() + " while waiting for the proxy: not starting the command");
        return 128 + signal.number();
    }

    private void forward(Process child, SignalReceived signal) {
        try {
            signaller.send(child, signal.name(), signal.number());
            log.info("Forwarded SIG" + signal.name() + " to pid " + child.pid());
        } catch (IOException e) {
            log.error("Could not forward SIG" + signal.name() + " to pid " + child.pid() + ": " + e.getMessage());
        }
    }

    /** The shell's conventions: 127 when the command is not found, 126 when it cannot be executed. */
    private int cannotStart(String program, IOException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("error=2,")) {
            log.error(program + ": command not found");
            return 127;
        }
        if (message.contains("error=13,")) {
            log.error(program + ": permission denied (not an executable file)");
            return 126;
        }
        log.error(program + ": cannot execute: " + message);
        return 126;
    }
}
