package dev.sidecarwait.cli;

/** A mistake in the command line or the environment: reported in one line, exit code 2, no stack trace. */
public final class UsageError extends RuntimeException {

    public UsageError(String message) {
        super(message, null, false, false);
    }

    /** "invalid value for --timeout: '5x' is not a duration (...)". */
    public static UsageError invalid(String source, String reason) {
        return new UsageError("invalid value for " + source + ": " + reason);
    }
}
