package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;
import java.util.Collection;

/**
 * Any object by a condition, as kubectl wait --for=condition=NAME=STATUS judges it: every object found (at least one)
 * has the condition with that status (True unless asked otherwise).
 */
final class ConditionJudge {

    private ConditionJudge() {
    }

    static Verdict judge(Collection<JsonFields> objects, String condition, String status) {
        if (objects.isEmpty()) {
            return Verdict.waiting("not found");
        }
        for (JsonFields object : objects) {
            JsonFields found = object.at("status", "conditions").where("type", condition);
            String now = found.at("status").text();
            if (!status.equals(now)) {
                String name = objects.size() == 1 ? "" : PeerText.shown(object.at("metadata", "name").text("?"), 80) + ": ";
                String said = Verdict.said(found);
                return Verdict.waiting(name + (now == null ? "no condition " + condition + " yet"
                        : "condition " + condition + " is " + PeerText.shown(now, 20) + (said.isEmpty() ? "" : " (" + said + ")"))
                        + ", waiting for " + status);
            }
        }
        return Verdict.ready("condition " + condition + " is " + status);
    }
}
