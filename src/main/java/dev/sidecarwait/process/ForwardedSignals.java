package dev.sidecarwait.process;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * The fixed list of signals the wrapper passes on to its command. Never "all signals": runtime-internal ones
 * (the JVM's and the native image's own) must stay where they belong.
 */
public final class ForwardedSignals {

    /** In this order; a runtime that reserves one of them (HotSpot reserves QUIT) simply keeps it. */
    public static final List<String> NAMES = List.of("TERM", "INT", "HUP", "QUIT", "USR1", "USR2");

    private ForwardedSignals() {
    }

    /** Installs {@code handler} for every forwarded signal the runtime lets us handle; returns their names. */
    public static List<String> install(Consumer<Signal> handler) {
        List<String> installed = new ArrayList<>();
        for (String name : NAMES) {
            try {
                Signal.handle(new Signal(name), handler::accept);
                installed.add(name);
            } catch (IllegalArgumentException reservedByTheRuntime) {
                // e.g. "Signal already used by VM or OS: SIGQUIT" on HotSpot
            }
        }
        return installed;
    }
}
