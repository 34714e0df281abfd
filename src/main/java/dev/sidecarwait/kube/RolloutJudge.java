package dev.sidecarwait.kube;

import dev.sidecarwait.probe.ObjectKind;

/**
 * A rollout, judged as kubectl rollout status judges it (kubectl's polymorphichelpers/rollout_status.go): the
 * controller has seen the latest spec, every replica is updated, no old one is left, and the updated ones are
 * available (ready, for a StatefulSet); a Deployment past its progress deadline has failed, as kubectl says.
 */
final class RolloutJudge {

    private RolloutJudge() {
    }

    static Verdict judge(ObjectKind kind, JsonFields object) {
        JsonFields spec = object.at("spec");
        JsonFields status = object.at("status");
        long generation = object.at("metadata", "generation").number(0);
        long observed = status.at("observedGeneration").number(0);
        if (kind != ObjectKind.DEPLOYMENT && !"RollingUpdate".equals(spec.at("updateStrategy", "type").text("RollingUpdate"))) {
            return Verdict.failed("rollout status is only available for the RollingUpdate strategy");
        }
        if (observed == 0 && kind == ObjectKind.STATEFULSET || generation > observed) {
            return Verdict.waiting("waiting for the rollout's spec update to be observed");
        }
        return switch (kind) {
            case DEPLOYMENT -> deployment(spec, status);
            case STATEFULSET -> statefulSet(spec, status);
            default -> daemonSet(status);
        };
    }

    private static Verdict deployment(JsonFields spec, JsonFields status) {
        JsonFields progressing = status.at("conditions").where("type", "Progressing");
        if ("ProgressDeadlineExceeded".equals(progressing.at("reason").text())) {
            return Verdict.failed("the rollout exceeded its progress deadline (" + Verdict.said(progressing) + ")");
        }
        long wanted = spec.at("replicas").number(1);
        long updated = status.at("updatedReplicas").number(0);
        long replicas = status.at("replicas").number(0);
        long available = status.at("availableReplicas").number(0);
        if (updated < wanted) {
            return Verdict.waiting(updated + " of " + wanted + " new replicas have been updated");
        }
        if (replicas > updated) {
            return Verdict.waiting((replicas - updated) + " old replicas are pending termination");
        }
        if (available < updated) {
            return Verdict.waiting(available + " of " + updated + " updated replicas are available");
        }
        return Verdict.ready("rolled out (" + available + " available)");
    }

    private static Verdict statefulSet(JsonFields spec, JsonFields status) {
        long wanted = spec.at("replicas").number(1);
        long ready = status.at("readyReplicas").number(0);
        if (ready < wanted) {
            return Verdict.waiting(ready + " of " + wanted + " pods are ready");
        }
        JsonFields partition = spec.at("updateStrategy", "rollingUpdate", "partition");
        if (partition.present()) {
            long updated = status.at("updatedReplicas").number(0);
            long needed = wanted - partition.number(0);
            return updated < needed ? Verdict.waiting(updated + " of " + needed + " new pods have been updated")
                    : Verdict.ready("partitioned roll out complete (" + updated + " new pods)");
        }
        String update = status.at("updateRevision").text("");
        if (!update.equals(status.at("currentRevision").text(""))) {
            return Verdict.waiting(status.at("updatedReplicas").number(0) + " pods at the new revision, rolling update not "
                    + "complete");
        }
        return Verdict.ready("rolled out (" + ready + " ready)");
    }

    private static Verdict daemonSet(JsonFields status) {
        long desired = status.at("desiredNumberScheduled").number(0);
        long updated = status.at("updatedNumberScheduled").number(0);
        long available = status.at("numberAvailable").number(0);
        if (updated < desired) {
            return Verdict.waiting(updated + " of " + desired + " new pods have been updated");
        }
        if (available < desired) {
            return Verdict.waiting(available + " of " + desired + " updated pods are available");
        }
        return Verdict.ready("rolled out (" + available + " available)");
    }
}
