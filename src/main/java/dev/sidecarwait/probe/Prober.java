package dev.sidecarwait.probe;

import java.time.Duration;

/** Looks at a target once, taking at most {@code timeout}. Never throws for network trouble. */
public interface Prober {

    ProbeResult probe(Target target, Duration timeout);
}
