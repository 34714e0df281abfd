package dev.sidecarwait.probe;

/**
 * What a k8s:// target asks of the API server: the object by TYPE (as kubectl spells it) and name, or the pods a label
 * selector picks; in {@code namespace} (null: the pod's own); and what ready means where the kind's own judgement is
 * not wanted or there is none: a {@code condition} with its {@code status}. {@code endpoints}: how many ready
 * endpoints a Service needs. {@code absentReady}: a Job that does not exist counts as done (it ran before and was
 * deleted after its TTL).
 */
public record KubeQuery(String type, ObjectKind kind, String name, String selector, String namespace, String condition,
                        String status, int endpoints, boolean absentReady) {

    /** How the object is named in messages and RBAC lines: "job/migrate", "pods -l app=db". */
    public String shown() {
        return name != null ? type + "/" + name : type + " -l " + selector;
    }

    /** Judged by a condition rather than by the kind's own rule. */
    public boolean byCondition() {
        return condition != null;
    }
}
