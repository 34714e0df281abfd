package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;
import java.util.Collection;

/**
 * Any object by a condition, as kubectl wait --for=condition=NAME=STATUS judges it (kubectl's cmd/wait/condition.go):
 * every object found (at least one) has the condition, its type and status compared without regard to case, and a
 * condition observed for an older generation of the object than its metadata.generation does not count yet.
 */
final class ConditionJudge {

    private ConditionJudge() {
    }

    static Verdict judge(Collection<JsonFields> objects, String condition, String status) {
        if (objects.isEmpty()) {
            return Verdict.waiting("not found");
        }
        for (JsonFields object : objects) {
            JsonFields found = object.at("status", "conditions").items().stream()
                    .filter(item -> condition.equalsIgnoreCase(item.at("type").text(""))).findFirst().orElse(JsonFields.of(null));
            String now = found.at("status").text();
            long generation = object.at("metadata", "generation").number(-1);
            long observed = found.at("observedGeneration").number(object.at("status", "observedGeneration").number(-1));
            boolean stale = generation >= 0 && observed >= 0 && observed < generation;
            if (now == null || stale || !status.equalsIgnoreCase(now)) {
                String name = objects.size() == 1 ? "" : PeerText.shown(object.at("metadata", "name").text("?"), 80) + ": ";
                String said = Verdict.said(found);
                return Verdict.waiting(name + (now == null ? "no condition " + condition + " yet"
                        : "condition " + condition + " is " + PeerText.shown(now, 20) + (said.isEmpty() ? "" : " (" + said + ")")
                        + (stale ? " for generation " + observed + " of " + generation : ""))
                        + ", waiting for " + status);
            }
        }
        return Verdict.ready("condition " + condition + " is " + status);
    }
}
