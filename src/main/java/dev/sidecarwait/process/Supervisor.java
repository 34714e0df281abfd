package dev.sidecarwait.process;

import dev.sidecarwait.Clock;
import dev.sidecarwait.output.Log;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The wrapper as a container's main process: waits, then either runs the command with this process's stdin,
 * stdout, stderr, environment and working directory, passes signals on and stays until the command has exited
 * (supervision), or replaces itself with the command (hand-over).
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

    /** How a run ended, for the last log line: {@code what} is a phrase such as "start-app exited with code 3". */
    public record Result(int exitCode, Ending ending, String what) {
    }

    public enum Ending { WAIT_FAILED, SIGNALLED_WHILE_WAITING, NOT_STARTED, COMMAND_EXITED }

    private static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Clock clock;
    private final Log log;
    private final ChildSignaller signaller;
    private final OrphanReaper reaper;
    private final String path;
    private final StopSignal onStop;
    private final Supplier<String> awaited;

    /**
     * {@code path}: the PATH the command is looked up in, to explain a failure to start it; {@code onStop}: what the
     * command gets when SIGTERM arrives (--stop-signal; TERM passes it on as it is); {@code awaited}: what the wait is
     * waiting for at this moment, in words ("Envoy proxy", a URL), for a signal that ends it.
     */
    public Supervisor(Clock clock, Log log, ChildSignaller signaller, String path, StopSignal onStop, Supplier<String> awaited) {
        this.clock = clock;
        this.log = log;
        this.signaller = signaller;
        this.reaper = new OrphanReaper(log);
        this.path = path;
        this.onStop = onStop;
        this.awaited = awaited;
    }

    /** Called from a signal handler thread. */
    public void signal(String name, int number) {
        events.add(new SignalReceived(name, number));
    }

    /**
     * Runs {@code waitStep} (exit-code semantics: 0 means go on), then the command as a child, and stays until it
     * has exited. Ends with the command's exit code; the wait's when it did not end in 0; 128+N when signal N
     * ended the wait; 127 or 126 when the command could not be started. {@code replacer}: null on the JVM, which
     * starts the command with the JDK's own state; else the command starts through an {@link ExecStage}, with the
     * signal state this process inherited.
     */
    public Result run(Callable<Integer> waitStep, List<String> command, ProcessReplacer replacer) throws InterruptedException {
        Result stopped = untilTheWaitLetsItStart(waitStep, command.get(0));
        return stopped != null ? stopped : supervise(command, replacer);
    }

    /**
     * Runs {@code waitStep}, then replaces this process with the command (exec), after {@code lastWords} (the
     * last line). Returns only when it did not: the wait failed or was stopped, the command cannot be found or
     * executed (127, 126, decided before the call by the same lookup as a start), or the exec itself failed.
     */
    public Result handOver(Callable<Integer> waitStep, List<String> command, ProcessReplacer replacer, Runnable lastWords)
            throws InterruptedException {
        String program = command.get(0);
        Result stopped = untilTheWaitLetsItStart(waitStep, program);
        if (stopped != null) {
            return stopped;
        }
        CommandLookup.Lookup lookup = CommandLookup.find(program, path);
        if (lookup instanceof CommandLookup.Failure failure) {
            return notStarted(program, failure);
        }
        Inherited now = Inherited.ofThisThread(); // the thread that calls execve below
        if (now.unknown() != null) {
            log.warn("Cannot hand over: " + now.unknown() + "; supervising the command instead");
            return supervise(command, null);
        }
        ExecPlan plan = ExecPlan.of((CommandLookup.Found) lookup, RawArguments.of(command, CMDLINE),
                replacer.atStart(), now);
        log.debug("Handing over: " + plan.describe());
        replacer.setDispositions(plan);
        if (nextWhileWaiting(false) instanceof SignalReceived signal) { // arrived before the dispositions changed
            return stoppedWhileWaiting(signal);
        }
        lastWords.run();
        CommandLookup.Failure failure = CommandLookup.afterExec(program, replacer.exec(plan));
        return notStarted(program, failure);
    }

    /** Null when the command may start; else how the run ended without it. */
    private Result untilTheWaitLetsItStart(Callable<Integer> waitStep, String program) throws InterruptedException {
        Thread waiting = new Thread(() -> events.add(new WaitFinished(callSafely(waitStep))), "wait");
        waiting.setDaemon(true); // a signal may end the wait while a request is still in flight
        waiting.start();

        Event first = nextWhileWaiting(true);
        if (first instanceof SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }
        int waited = ((WaitFinished) first).code();
        if (waited != 0) {
            log.error("Not starting " + program + ": the wait did not succeed (exit code " + waited + ")");
            return new Result(waited, Ending.WAIT_FAILED, "not starting " + program);
        }
        if (nextWhileWaiting(false) instanceof SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }
        return null;
    }

    /**
     * The next event while nothing runs yet ({@code block}: wait for one, else null when there is none). A signal whose
     * default action would not end a process either (a terminal resized, job control) is logged and passed by.
     */
    private Event nextWhileWaiting(boolean block) throws InterruptedException {
        while (true) {
            Event event = block ? events.take() : events.poll();
            if (!(event instanceof SignalReceived signal) || ForwardedSignals.endsAWait(signal.name())) {
                return event;
            }
            log.debug("Received SIG" + signal.name() + " while waiting: it would not end a process either; still waiting");
        }
    }

    private Result supervise(List<String> command, ProcessReplacer replacer) throws InterruptedException {
        if (CommandLookup.find(command.get(0), path) instanceof CommandLookup.Failure failure) {
            return notStarted(command.get(0), failure); // as the hand-over and the container runtime decide it
        }
        List<String> start = command;
        if (replacer != null && replacer.atStart().unknown() == null) {
            start = new ArrayList<>(replacer.self());
            start.addAll(ExecStage.arguments(replacer.atStart(), command));
        }
        Process child;
        try {
            child = new ProcessBuilder(start).inheritIO().start();
        } catch (IOException e) {
            return notStarted(command.get(0), CommandLookup.whyNotStarted(command.get(0), path, e));
        }
        log.info("Started " + String.join(" ", command) + " (pid " + child.pid() + ")");
        reaper.startIfPidOne(child);
        child.onExit().thenAccept(exited -> events.add(new CommandExited(exited.exitValue())));

        // The binary's pages are given back once the exec stage has become the command: a page two processes map stays.
        long giveBackBy = NativeImage.RUNTIME ? clock.nanoTime() + OwnPages.WAIT_FOR_THE_COMMAND_NANOS : 0;
        while (true) {
            Event event = giveBackBy == 0 ? events.take() : events.poll(20, TimeUnit.MILLISECONDS);
            if (giveBackBy != 0 && (OwnPages.commandRuns(child.pid()) || clock.nanoTime() - giveBackBy > 0)) {
                OwnPages.giveBack(log); // what the start and the wait read, for as long as the command runs
                giveBackBy = 0;
            }
            if (event instanceof SignalReceived signal) {
                forward(child, signal);
            } else if (event instanceof CommandExited exited) {
                log.info(command.get(0) + " exited with code " + exited.code());
                return new Result(exited.code(), Ending.COMMAND_EXITED, command.get(0) + " exited with code " + exited.code());
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

    private Result stoppedWhileWaiting(SignalReceived signal) {
        log.warn("Received SIG" + signal.name() + " while waiting for " + awaited.get() + ": not starting the command");
        return new Result(128 + signal.number(), Ending.SIGNALLED_WHILE_WAITING,
                "SIG" + signal.name() + " arrived while waiting; the command was not started");
    }

    private void forward(Process child, SignalReceived signal) {
        boolean rewritten = signal.name().equals("TERM") && onStop.number() != StopSignal.TERM.number();
        String sent = rewritten ? onStop.name() : signal.name();
        String as = rewritten ? " as " + onStop + " (--stop-signal)" : "";
        try {
            signaller.send(child, sent, rewritten ? onStop.number() : signal.number());
            log.info("Forwarded SIG" + signal.name() + " to pid " + child.pid() + as);
        } catch (IOException e) {
            log.error("Could not forward SIG" + signal.name() + as + " to pid " + child.pid() + ": " + e.getMessage());
        }
    }

    /** The shell's conventions, decided by looking the command up: 127 not found, 126 found but not executable. */
    private Result notStarted(String program, CommandLookup.Failure failure) {
        log.error(program + ": " + failure.reason());
        return new Result(failure.exitCode(), Ending.NOT_STARTED, program + ": " + failure.reason());
    }
}
