package dev.sidecarwait.probe;

/** Looks at a target once, within {@code timeout}. Never throws for network trouble. */
public interface Prober {

    ProbeResult probe(Target target, Timeout timeout);
}
