package dev.sidecarwait.kube;

import dev.sidecarwait.probe.KubeQuery;
import dev.sidecarwait.probe.ObjectKind;
import java.util.Map;

/** What a k8s:// target's objects, as a watch keeps them, mean for the wait: each kind to its judge. */
final class Judgement {

    private Judgement() {
    }

    /**
     * {@code objects} by name; {@code deletedUnfinished}: the awaited Job's counts when the watch saw it deleted before
     * it completed, else null. ?absent=ready counts a Job that is not there as done only when it was not seen to go so.
     */
    static Verdict of(KubeQuery query, Map<String, JsonFields> objects, String deletedUnfinished) {
        if (query.byCondition()) {
            return ConditionJudge.judge(objects.values(), query.condition(), query.status());
        }
        if (query.kind() == ObjectKind.SERVICE) {
            return EndpointsJudge.judge(objects.values(), query.endpoints(), query.name());
        }
        if (query.kind() == ObjectKind.POD) {
            return PodsJudge.judge(objects.values());
        }
        JsonFields object = objects.get(query.name());
        if (object == null && deletedUnfinished != null) {
            return Verdict.waiting("deleted before it completed (" + deletedUnfinished + "): not done; waiting for a Job "
                    + "of that name to be created again");
        }
        if (object == null) {
            return query.absentReady() ? Verdict.ready("not found: absent counts as done (?absent=ready)")
                    : Verdict.waiting("not found" + (query.kind() == ObjectKind.JOB ? " (not created yet, or deleted after "
                    + "it finished: see ?absent=ready)" : ""));
        }
        return query.kind() == ObjectKind.JOB ? JobJudge.judge(object) : RolloutJudge.judge(query.kind(), object);
    }
}
