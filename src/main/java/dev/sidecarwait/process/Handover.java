package dev.sidecarwait.process;

/**
 * What the wrapper does once the wait lets the command start: hand the process over to it (exec: the same PID,
 * signals straight to the command, nothing of ours left) or stay as its parent and supervise it, and why, said at
 * {@code level}: a warning when a choice the user made cannot be honoured, info when the hand-over a user expects by
 * default cannot happen (the jar), debug when all goes as asked.
 */
public record Handover(boolean handOver, Level level, String why) {

    public enum Level { DEBUG, INFO, WARN }

    /**
     * {@code supervise}: the user's choice (null: none), named in messages by {@code choice}; {@code quit}: a quit
     * URL is configured, which must be POSTed after the command; {@code replacer}: null on the JVM.
     */
    public static Handover decide(Boolean supervise, String choice, boolean quit, ProcessReplacer replacer) {
        if (Boolean.TRUE.equals(supervise)) {
            return new Handover(false, Level.DEBUG, "Supervising the command, as asked (" + choice + ")");
        }
        if (quit) { // an explicit hand-over with a quit is refused as a usage error before this
            return new Handover(false, Level.DEBUG, "Supervising the command: the sidecar is told to quit once it has exited");
        }
        boolean asked = Boolean.FALSE.equals(supervise);
        Level unexpected = asked ? Level.WARN : Level.INFO;
        if (replacer == null) {
            return new Handover(false, unexpected, (asked ? choice + ": a" : "Supervising the command: a")
                    + " JVM cannot replace itself with the command" + (asked ? "; supervising it instead" : "")
                    + " (the native binary hands over)");
        }
        if (replacer.atStart().unknown() != null) {
            return new Handover(false, unexpected, "Supervising the command: cannot hand over without knowing what the process "
                    + "inherited (" + replacer.atStart().unknown() + ")");
        }
        return new Handover(true, Level.DEBUG, "Handing the process over to the command once the wait lets it start (exec): "
                + "nothing is left to do after it" + (asked ? " (" + choice + ")" : ""));
    }
}
