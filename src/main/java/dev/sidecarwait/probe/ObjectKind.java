package dev.sidecarwait.probe;

import java.util.List;
import java.util.Locale;

/**
 * The kinds whose readiness this tool judges itself, each with the names kubectl accepts for it and where the API
 * serves it; {@link #OTHER} is any other resource (a custom one included), found through discovery and judged by a
 * condition. A Service is judged by its EndpointSlices, which is what this kind watches.
 */
public enum ObjectKind {
    JOB("batch", "v1", "jobs", List.of("job", "jobs", "job.batch", "jobs.batch")),
    SERVICE("discovery.k8s.io", "v1", "endpointslices", List.of("svc", "service", "services")),
    DEPLOYMENT("apps", "v1", "deployments", List.of("deploy", "deployment", "deployments", "deployment.apps", "deployments.apps")),
    STATEFULSET("apps", "v1", "statefulsets", List.of("sts", "statefulset", "statefulsets", "statefulset.apps", "statefulsets.apps")),
    DAEMONSET("apps", "v1", "daemonsets", List.of("ds", "daemonset", "daemonsets", "daemonset.apps", "daemonsets.apps")),
    POD("", "v1", "pods", List.of("po", "pod", "pods")),
    OTHER(null, null, null, List.of());

    public final String group;
    public final String version;
    public final String resource;
    private final List<String> names;

    ObjectKind(String group, String version, String resource, List<String> names) {
        this.group = group;
        this.version = version;
        this.resource = resource;
        this.names = names;
    }

    /** The kind a TYPE as kubectl spells it names (case-insensitive); OTHER for any other. */
    public static ObjectKind of(String type) {
        String lower = type.toLowerCase(Locale.ROOT);
        for (ObjectKind kind : values()) {
            if (kind.names.contains(lower)) {
                return kind;
            }
        }
        return OTHER;
    }

    /** The kinds that are rolled out, as kubectl rollout status judges them. */
    public boolean rollsOut() {
        return this == DEPLOYMENT || this == STATEFULSET || this == DAEMONSET;
    }
}
