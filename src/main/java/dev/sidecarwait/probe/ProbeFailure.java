package dev.sidecarwait.probe;

/** A network failure, already worded for a log line ("connection refused", "request timed out after 500 ms"). */
public final class ProbeFailure extends Exception {

    public ProbeFailure(String reason) {
        super(reason, null, false, false);
    }
}
