package dev.sidecarwait.process;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * The signals the supervising wrapper passes on to its command: every one a process can catch and a container may be
 * told to stop with (Kubernetes 1.33's lifecycle.stopSignal, an image's STOPSIGNAL: WINCH for Apache httpd's graceful
 * stop, QUIT for nginx's), the real-time ones included. tini passes on all but FPE, ILL, SEGV, BUS, ABRT, TRAP, SYS,
 * TTIN and TTOU (krallin/tini, src/tini.c, configure_signals). Left out here: KILL and STOP, which cannot be caught;
 * SEGV, BUS, ILL, FPE, TRAP, SYS and ABRT, which report a fault of the wrapper itself to its runtime's crash handling;
 * PIPE and XFSZ, which both runtimes ignore so that a write to a closed peer or past a file-size limit is an exception
 * in the wrapper; CHLD, the wrapper's own children ending. TTIN and TTOU are passed on: tini keeps them because it
 * hands the terminal to its child's process group, and the wrapper never does.
 */
public final class ForwardedSignals {

    /**
     * In this order, then {@link SignalNumbers#realTime()}. Where the runtime reserves one (HotSpot: QUIT), has no name
     * for it (HotSpot: every real-time signal) or the C library keeps it (musl: RTMIN), the wrapper cannot take it;
     * {@link #install} returns those it could.
     */
    public static final List<String> NAMES = names();

    private ForwardedSignals() {
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>(List.of("TERM", "INT", "HUP", "QUIT", "USR1", "USR2", "WINCH", "PWR", "URG",
                "XCPU", "VTALRM", "PROF", "ALRM", "IO", "CONT", "TSTP", "TTIN", "TTOU", "STKFLT"));
        names.addAll(SignalNumbers.realTime());
        return List.copyOf(names);
    }

    /**
     * Whether {@code name} ends a wait (exit 128+N, the command not started) as it would end a process: not WINCH, URG
     * and CONT, ignored by default, nor TSTP, TTIN and TTOU, which stop one (a terminal resized or job control).
     */
    public static boolean endsAWait(String name) {
        return !List.of("WINCH", "URG", "CONT", "TSTP", "TTIN", "TTOU").contains(name);
    }

    /** Linux's number for {@code name}, from the runtime's table or {@link SignalNumbers}; -1 when neither has it. */
    public static int number(String name) {
        int number = SignalNumbers.of(name);
        if (number > 0) {
            return number;
        }
        try {
            return new Signal(name).getNumber();
        } catch (IllegalArgumentException unknown) {
            return -1;
        }
    }

    /** Installs {@code handler} for every forwarded signal the runtime lets us handle; returns their names. */
    public static List<String> install(Consumer<Signal> handler) {
        return install(NAMES, handler);
    }

    /**
     * Installs {@code handler} for the signals that end a process and are not real-time ones (TERM, INT, HUP, USR1,
     * ...): what a wait with no command takes. Each handler costs its start some 13 microseconds in the binary, and
     * nothing sends a hook the 31 real-time signals, so those keep their default.
     */
    public static List<String> installEnding(Consumer<Signal> handler) {
        List<String> ending = new ArrayList<>();
        for (String name : NAMES) {
            if (endsAWait(name) && !SignalNumbers.realTime().contains(name)) {
                ending.add(name);
            }
        }
        return install(ending, handler);
    }

    private static List<String> install(List<String> names, Consumer<Signal> handler) {
        List<String> installed = new ArrayList<>();
        for (String name : names) {
            if (NativeImage.RUNTIME && name.equals("RTMIN")) {
                continue; // musl keeps 34 for itself: asking would throw, and a stack walk reads pages a wait need not
            }
            try {
                Signal.handle(new Signal(name), handler::accept);
                installed.add(name);
            } catch (IllegalArgumentException reservedOrUnknown) {
                // "Signal already used by VM or OS: SIGQUIT", "Unknown signal: RTMIN+3" on HotSpot
            }
        }
        return installed;
    }
}
