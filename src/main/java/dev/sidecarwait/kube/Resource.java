package dev.sidecarwait.kube;

import dev.sidecarwait.probe.KubeQuery;
import dev.sidecarwait.probe.ObjectKind;
import dev.sidecarwait.wire.PeerText;
import dev.sidecarwait.wire.ProbeFailure;
import java.util.Locale;

/**
 * Where the API serves a kind: its group, version and plural name, and whether its objects live in a namespace. The
 * kinds judged here are known; any other is found as kubectl finds it, through the API server's discovery (the
 * group's preferred version, then that version's resources, matched by name, singular, short name or kind).
 */
record Resource(String group, String version, String plural, boolean namespaced) {

    /** A GET whose answer is JSON (discovery's documents). */
    interface Fetch {
        JsonFields get(String path) throws ProbeFailure;
    }

    /** The resource {@code query} names, asking the API server only for a kind not known here. */
    static Resource of(KubeQuery query, Fetch fetch) throws ProbeFailure {
        ObjectKind kind = query.kind();
        if (kind == ObjectKind.SERVICE && query.byCondition()) {
            return new Resource("", "v1", "services", true); // the Service itself, not its endpoints
        }
        if (kind != ObjectKind.OTHER) {
            return new Resource(kind.group, kind.version, kind.resource, true);
        }
        int dot = query.type().indexOf('.');
        String word = dot < 0 ? query.type() : query.type().substring(0, dot);
        String group = dot < 0 ? "" : query.type().substring(dot + 1);
        String groupVersion = group.isEmpty() ? "v1"
                : fetch.get("/apis/" + group).at("preferredVersion", "groupVersion").text();
        if (groupVersion == null || !groupVersion.matches("([a-z0-9.-]+/)?[a-z0-9]+")) {
            throw new ProbeFailure("the API server serves no group " + group + " (is its CRD installed?)");
        }
        JsonFields list = fetch.get((group.isEmpty() ? "/api/" : "/apis/") + groupVersion);
        for (JsonFields resource : list.at("resources").items()) {
            String name = resource.at("name").text("");
            if (!name.contains("/") && (name.equals(word) || word.equals(resource.at("singularName").text())
                    || word.equals(resource.at("kind").text("").toLowerCase(Locale.ROOT))
                    || resource.at("shortNames").items().stream().anyMatch(shortName -> word.equals(shortName.text())))) {
                if (!name.matches("[a-z0-9][-a-z0-9.]*")) {
                    throw new ProbeFailure("the API server's discovery names a resource '" + PeerText.shown(name, 60) + "'");
                }
                String version = groupVersion.substring(groupVersion.indexOf('/') + 1);
                return new Resource(group, version, name, resource.at("namespaced").isTrue());
            }
        }
        throw new ProbeFailure("the API server serves no resource " + query.type() + " in " + groupVersion
                + (group.isEmpty() ? " (name its group: certificates.cert-manager.io)" : " (is its CRD installed?)"));
    }

    /** The collection's path, in {@code namespace} when its objects live in one. */
    String path(String namespace) {
        return (group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version)
                + (namespaced ? "/namespaces/" + namespace : "") + "/" + plural;
    }

    /** As RBAC names it: jobs.batch, pods. */
    String rbacName() {
        return group.isEmpty() ? plural : plural + "." + group;
    }
}
