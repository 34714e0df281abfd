package dev.sidecarwait.process;

/**
 * What the wrapper does once the wait lets the command start: hand the process over to it (exec: the same PID,
 * signals straight to the command, nothing of ours left) or stay as its parent and supervise it, and why.
 * {@code warn}: the reason goes to the log as a warning (a choice the user made could not be honoured), else at
 * debug level.
 */
public record Handover(boolean handOver, boolean warn, String why) {

    /**
     * {@code supervise}: the user's choice (null: none), named in messages by {@code choice}; {@code quit}: a quit
     * URL is configured, which must be POSTed after the command; {@code replacer}: null on the JVM.
     */
    public static Handover decide(Boolean supervise, String choice, boolean quit, ProcessReplacer replacer) {
        if (Boolean.TRUE.equals(supervise)) {
            return new Handover(false, false, "Supervising the command, as asked (" + choice + ")");
        }
        if (quit) { // an explicit hand-over with a quit is refused as a usage error before this
            return new Handover(false, false, "Supervising the command: the sidecar is told to quit once it has exited");
        }
        boolean asked = Boolean.FALSE.equals(supervise);
        if (replacer == null) {
            return new Handover(false, asked, (asked ? choice + ": a" : "Supervising the command: a")
                    + " JVM cannot replace itself with the command" + (asked ? "; supervising it instead" : "")
                    + " (the native binary hands over)");
        }
        if (replacer.atStart().unknown() != null) {
            return new Handover(false, asked, "Supervising the command: cannot hand over without knowing what the process "
                    + "inherited (" + replacer.atStart().unknown() + ")");
        }
        return new Handover(true, false, "Handing the process over to the command once the wait lets it start (exec): "
                + "nothing is left to do after it" + (asked ? " (" + choice + ")" : ""));
    }
}
