package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;
import java.util.Collection;

/** Pods by name or label selector: all of them, and at least one, Ready (the pod's Ready condition True). */
final class PodsJudge {

    private PodsJudge() {
    }

    static Verdict judge(Collection<JsonFields> pods) {
        if (pods.isEmpty()) {
            return Verdict.waiting("no such pod yet");
        }
        long ready = 0;
        String firstUnready = null;
        for (JsonFields pod : pods) {
            JsonFields condition = pod.at("status", "conditions").where("type", "Ready");
            if ("True".equals(condition.at("status").text())) {
                ready++;
            } else if (firstUnready == null) {
                String said = Verdict.said(condition);
                firstUnready = PeerText.shown(pod.at("metadata", "name").text("?"), 80) + " is "
                        + pod.at("status", "phase").text("Pending").replaceAll("[^A-Za-z]", "") + (said.isEmpty() ? "" : ": " + said);
            }
        }
        String counted = ready + " of " + pods.size() + " pod" + (pods.size() == 1 ? "" : "s") + " Ready";
        return firstUnready == null ? Verdict.ready(counted) : Verdict.waiting(counted + " (" + firstUnready + ")");
    }
}
