package dev.sidecarwait.process;

import dev.sidecarwait.Clock;
import dev.sidecarwait.output.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The wrapper as a container's main process: waits, then either runs the command with this process's stdin,
 * stdout, stderr, environment and working directory, passes signals on and stays until the command has exited
 * (supervision), or replaces itself with the command (hand-over).
 * Everything that happens (a signal, the wait's end, the command's exit) is an event in one {@link Inbox}, handled in
 * order on one thread, so a signal is never lost between the wait and the start.
 */
public final class Supervisor {

    /** How a run ended, for the last log line: {@code what} is a phrase such as "start-app exited with code 3". */
    public record Result(int exitCode, Ending ending, String what) {
    }

    public enum Ending { WAIT_FAILED, SIGNALLED_WHILE_WAITING, NOT_STARTED, COMMAND_EXITED }

    private static final Path CMDLINE = Path.of("/proc/self/cmdline");
    private static final Path FDS = Path.of("/proc/self/fd");

    private final Inbox inbox;
    private final Clock clock;
    private final Log log;
    private final ChildSignaller signaller;
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
        this.inbox = new Inbox(log);
        this.path = path;
        this.onStop = onStop;
        this.awaited = awaited;
    }

    /** Takes every signal it passes on that this runtime lets it take ({@link ForwardedSignals}); returns their names. */
    public List<String> takeSignals() {
        return inbox.takeSignals();
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
        if (nextWhileWaiting(false) instanceof Inbox.SignalReceived signal) { // arrived before the dispositions changed
            return stoppedWhileWaiting(signal);
        }
        lastWords.run();
        CommandLookup.Failure failure = CommandLookup.afterExec(program, replacer.exec(plan));
        return notStarted(program, failure);
    }

    /** Null when the command may start; else how the run ended without it. */
    private Result untilTheWaitLetsItStart(Callable<Integer> waitStep, String program) throws InterruptedException {
        Thread waiting = new Thread(() -> inbox.add(new Inbox.WaitFinished(callSafely(waitStep))), "wait");
        waiting.setDaemon(true); // a signal may end the wait while a request is still in flight
        waiting.start();

        Inbox.Event first = nextWhileWaiting(true);
        if (first instanceof Inbox.SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }
        int waited = ((Inbox.WaitFinished) first).code();
        if (waited != 0) {
            log.error("Not starting " + program + ": the wait did not succeed (exit code " + waited + ")");
            return new Result(waited, Ending.WAIT_FAILED, "not starting " + program);
        }
        if (nextWhileWaiting(false) instanceof Inbox.SignalReceived signal) {
            return stoppedWhileWaiting(signal);
        }
        return null;
    }

    /**
     * The next event while nothing runs yet ({@code block}: wait for one, else null when there is none). A signal whose
     * default action would not end a process either (a terminal resized, job control) is logged and passed by.
     */
    private Inbox.Event nextWhileWaiting(boolean block) throws InterruptedException {
        while (true) {
            Inbox.Event event = inbox.next(block ? -1 : 0);
            if (!(event instanceof Inbox.SignalReceived signal) || ForwardedSignals.endsAWait(signal.name())) {
                return event;
            }
            log.debug("Received SIG" + signal.name() + " while waiting: it would not end a process either; still waiting");
        }
    }

    private Result supervise(List<String> command, ProcessReplacer replacer) throws InterruptedException {
        CommandLookup.Lookup lookup = CommandLookup.find(command.get(0), path);
        if (lookup instanceof CommandLookup.Failure failure) {
            return notStarted(command.get(0), failure); // as the hand-over and the container runtime decide it
        }
        long child;
        try {
            child = start(command, (CommandLookup.Found) lookup, replacer);
        } catch (IOException e) {
            return notStarted(command.get(0), CommandLookup.whyNotStarted(command.get(0), path, e));
        }
        log.info("Started " + String.join(" ", command) + " (pid " + child + ")");

        // The binary's pages are given back once the exec stage has become the command: a page two processes map stays.
        long giveBackBy = NativeImage.RUNTIME ? clock.nanoTime() + OwnPages.WAIT_FOR_THE_COMMAND_NANOS : 0;
        while (true) {
            Inbox.Event event = inbox.next(giveBackBy == 0 ? -1 : 20);
            if (giveBackBy != 0 && (OwnPages.commandRuns(child) || clock.nanoTime() - giveBackBy > 0)) {
                OwnPages.giveBack(log); // what the start and the wait read, for as long as the command runs
                giveBackBy = 0;
            }
            if (event instanceof Inbox.SignalReceived signal) {
                forward(child, signal);
            } else if (event instanceof Inbox.CommandExited exited) {
                log.info(command.get(0) + " exited with code " + exited.code());
                return new Result(exited.code(), Ending.COMMAND_EXITED, command.get(0) + " exited with code " + exited.code());
            }
        }
    }

    /**
     * Starts the command, through an {@link ExecStage} that gives it the signal state this process started with where
     * there is a replacer that knows it, and has its exit come to the inbox: the JDK's Process on the JVM,
     * {@link NativeChild} in the native binary ({@code found}: where the lookup found the command). Its pid.
     */
    private long start(List<String> command, CommandLookup.Found found, ProcessReplacer replacer) throws IOException {
        boolean staged = replacer != null && replacer.atStart().unknown() == null;
        List<String> stage = new ArrayList<>();
        if (staged) {
            stage.addAll(replacer.self());
            stage.addAll(ExecStage.arguments(replacer.atStart(), List.of()));
        }
        if (!NativeImage.RUNTIME) {
            stage.addAll(command);
            Process child = new ProcessBuilder(stage).inheritIO().start();
            if (ProcessHandle.current().pid() == 1) {
                log.debug("Running as PID 1 on the JVM: orphaned processes are not reaped (the native build does)");
            }
            child.onExit().thenAccept(exited -> inbox.add(new Inbox.CommandExited(exited.exitValue())));
            return child.pid();
        }
        List<byte[]> argv = new ArrayList<>();
        stage.forEach(argument -> argv.add(argument.getBytes(StandardCharsets.UTF_8)));
        byte[] file = staged ? argv.get(0) : found.file().toString().getBytes(StandardCharsets.UTF_8);
        argv.addAll(RawArguments.of(command, CMDLINE));
        int[] close = Descriptors.open(FDS).stream().filter(fd -> fd > 2).mapToInt(Integer::intValue).toArray();
        long child = NativeChild.start(file, argv, close);
        inbox.watch(child);
        return child;
    }

    private int callSafely(Callable<Integer> waitStep) {
        try {
            return waitStep.call();
        } catch (Exception e) {
            log.error("The wait failed: " + e);
            return 70;
        }
    }

    private Result stoppedWhileWaiting(Inbox.SignalReceived signal) {
        log.warn("Received SIG" + signal.name() + " while waiting for " + awaited.get() + ": not starting the command");
        return new Result(128 + signal.number(), Ending.SIGNALLED_WHILE_WAITING,
                "SIG" + signal.name() + " arrived while waiting; the command was not started");
    }

    private void forward(long child, Inbox.SignalReceived signal) {
        boolean rewritten = signal.name().equals("TERM") && onStop.number() != StopSignal.TERM.number();
        String sent = rewritten ? onStop.name() : signal.name();
        String as = rewritten ? " as " + onStop + " (--stop-signal)" : "";
        try {
            signaller.send(child, sent, rewritten ? onStop.number() : signal.number());
            log.info("Forwarded SIG" + signal.name() + " to pid " + child + as);
        } catch (IOException e) {
            log.error("Could not forward SIG" + signal.name() + as + " to pid " + child + ": " + e.getMessage());
        }
    }

    /** The shell's conventions, decided by looking the command up: 127 not found, 126 found but not executable. */
    private Result notStarted(String program, CommandLookup.Failure failure) {
        log.error(program + ": " + failure.reason());
        return new Result(failure.exitCode(), Ending.NOT_STARTED, program + ": " + failure.reason());
    }
}
