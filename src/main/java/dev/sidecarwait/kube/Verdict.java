package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;

/**
 * What the objects' state means for the wait: ready (and what was seen), not yet (and what it waits for now), or
 * failed for good (a Job past its backoffLimit): the wait ends at once. Text from the objects is shown escaped.
 */
record Verdict(State state, String detail) {

    enum State { READY, WAITING, FAILED }

    static Verdict ready(String seen) {
        return new Verdict(State.READY, seen);
    }

    static Verdict waiting(String why) {
        return new Verdict(State.WAITING, why);
    }

    static Verdict failed(String why) {
        return new Verdict(State.FAILED, why);
    }

    /** A condition's reason and message as a line quotes them: "BackoffLimitExceeded: Job has reached ...". */
    static String said(JsonFields condition) {
        String reason = condition.at("reason").text("");
        String message = condition.at("message").text("");
        String both = reason.isEmpty() || message.isEmpty() ? reason + message : reason + ": " + message;
        return PeerText.shown(both, 200);
    }
}
