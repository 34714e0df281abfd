package dev.sidecarwait.probe;

import dev.sidecarwait.wire.Timeout;

/** Looks at a target once, within {@code timeout}. Never throws for network trouble. */
public interface Prober {

    ProbeResult probe(Target target, Timeout timeout);

    /** The wait is over: a prober that keeps connections between attempts (a watch, an HTTP connection) closes them. */
    default void finished() {
    }
}
