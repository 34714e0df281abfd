package dev.sidecarwait.kube;

import java.util.List;

/**
 * A Job, as kubectl wait --for=condition=complete and the Job controller mean it: done at Complete (or
 * SuccessCriteriaMet, which a 1.31+ API server sets first), failed for good at Failed (or FailureTarget, set before
 * the pods are cleaned up); otherwise its pods' counts and its last condition say where it is.
 */
final class JobJudge {

    private JobJudge() {
    }

    static Verdict judge(JsonFields job) {
        JsonFields status = job.at("status");
        JsonFields conditions = status.at("conditions");
        for (String done : List.of("Complete", "SuccessCriteriaMet")) {
            if ("True".equals(conditions.where("type", done).at("status").text())) {
                return Verdict.ready("complete (" + status.at("succeeded").number(0) + " succeeded)");
            }
        }
        JsonFields failed = conditions.where("type", "Failed");
        if ("True".equals(failed.at("status").text())) {
            String said = Verdict.said(failed);
            return Verdict.failed("the Job failed" + (said.isEmpty() ? "" : " (" + said + ")") + "; " + counts(status));
        }
        JsonFields failing = conditions.where("type", "FailureTarget"); // set first: the counts have not caught up yet
        if ("True".equals(failing.at("status").text())) {
            String said = Verdict.said(failing);
            return Verdict.failed("the Job failed" + (said.isEmpty() ? "" : " (" + said + ")")
                    + "; its pods are being ended (FailureTarget)");
        }
        List<JsonFields> all = conditions.items();
        JsonFields last = all.isEmpty() ? null : all.get(all.size() - 1);
        String said = last == null ? "" : Verdict.said(last);
        return Verdict.waiting("not complete yet: " + counts(status) + (last == null ? "" : "; last condition "
                + dev.sidecarwait.wire.PeerText.shown(last.at("type").text("?"), 60) + (said.isEmpty() ? "" : " (" + said + ")")));
    }

    /** A Job gone from the API: null when it had completed (a TTL's clean-up), else its counts as it went. */
    static String unfinished(JsonFields job) {
        return judge(job).state() == Verdict.State.READY ? null : counts(job.at("status"));
    }

    private static String counts(JsonFields status) {
        return "active " + status.at("active").number(0) + ", succeeded " + status.at("succeeded").number(0)
                + ", failed " + status.at("failed").number(0);
    }
}
