package dev.sidecarwait.drain;

import java.util.ArrayList;
import java.util.List;

/**
 * One look at what still holds the pod: the things still open, named for people ("port 8080 LISTEN",
 * "listener 0.0.0.0_15006: 2"), or, when the look could not tell, why. Unknown is never drained.
 */
public record Reading(List<String> holding, String unknown) {

    public Reading {
        holding = List.copyOf(holding);
    }

    public static Reading clear() {
        return new Reading(List.of(), null);
    }

    public static Reading holding(List<String> what) {
        return new Reading(what, null);
    }

    public static Reading unknown(String why) {
        return new Reading(List.of(), why);
    }

    public boolean known() {
        return unknown == null;
    }

    public boolean drained() {
        return known() && holding.isEmpty();
    }

    /** Drained only when both are; what either still holds, and why either could not tell. */
    public static Reading both(Reading first, Reading second) {
        List<String> all = new ArrayList<>(first.holding);
        all.addAll(second.holding);
        String why = first.known() ? second.unknown : second.known() ? first.unknown : first.unknown + "; " + second.unknown;
        return new Reading(all, why);
    }

    @Override
    public String toString() {
        String what = holding.isEmpty() ? (known() ? "nothing" : "") : String.join("; ", holding);
        return known() ? what : (what.isEmpty() ? "" : what + "; ") + "unknown: " + unknown;
    }
}
