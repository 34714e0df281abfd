package dev.sidecarwait.probe;

import java.util.List;
import java.util.Locale;

/**
 * k8s://TYPE/NAME?PARAMETERS read into a {@link KubeQuery}: TYPE as kubectl accepts it (job, deploy, svc,
 * certificates.cert-manager.io), the object's name, or ?selector= for pods; ?namespace=, ?condition= and ?status=,
 * ?endpoints= for a Service, ?absent=ready for a Job. Every other parameter, and every contradiction, is refused here,
 * before the wait.
 */
final class KubeTargets {

    static final String EXAMPLE = "k8s://job/migrate, k8s://svc/orders-db?endpoints=2, k8s://pods?selector=app%3Ddb";
    private static final List<String> PARAMETERS = List.of("namespace", "selector", "condition", "status", "endpoints", "absent");
    private static final String NAME = "[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?";

    private KubeTargets() {
    }

    static Target.Kube parse(UrlParts url, String text) {
        if (url.userInfo != null) {
            throw new IllegalArgumentException(Target.userInfoRefused("k8s"));
        }
        if (url.opaque || url.authority == null || url.authority.isEmpty() || url.fragment != null) {
            throw new IllegalArgumentException("a k8s:// target is the object's type and name: " + EXAMPLE);
        }
        String type = url.authority.toLowerCase(Locale.ROOT);
        if (!type.matches(NAME)) {
            throw new IllegalArgumentException("'" + url.authority + "' is not a resource type as kubectl writes it "
                    + "(job, deploy, svc, certificates.cert-manager.io)");
        }
        for (String parameter : UrlQuery.names(url.query)) {
            if (!PARAMETERS.contains(parameter)) {
                throw new IllegalArgumentException("a k8s:// target takes no parameter '" + parameter + "'; it takes "
                        + String.join(", ", PARAMETERS));
            }
        }
        String path = UrlParts.decoded(url.path).replaceFirst("^/", "");
        String name = path.isEmpty() ? null : path;
        if (name != null && !name.matches(NAME)) {
            throw new IllegalArgumentException("'" + name + "' is not an object's name (lower case letters, digits, '-' "
                    + "and '.')");
        }
        return new Target.Kube(query(type, name, url.query), text);
    }

    private static KubeQuery query(String type, String name, String rawQuery) {
        ObjectKind kind = ObjectKind.of(type);
        String selector = UrlQuery.value(rawQuery, "selector");
        String condition = UrlQuery.value(rawQuery, "condition");
        if ((name == null) == (selector == null)) {
            throw new IllegalArgumentException(name == null ? "name the object, or select pods by label: " + EXAMPLE
                    : "give the object's name or ?selector=, not both");
        }
        if (selector != null && (selector.isEmpty() || selector.length() > 1024 || !selector.matches("[\\x20-\\x7e]+"))) {
            throw new IllegalArgumentException("?selector= is a label selector: app%3Ddb (app=db)");
        }
        if (selector != null && kind != ObjectKind.POD && condition == null) {
            throw new IllegalArgumentException("?selector= picks pods (k8s://pods?selector=app%3Ddb), or objects judged by "
                    + "a condition (&condition=Ready)");
        }
        if (kind == ObjectKind.OTHER && condition == null) {
            throw new IllegalArgumentException("this tool has no rule of its own for '" + type + "': name the condition "
                    + "that means ready (?condition=Ready), or use job, svc, deploy, sts, ds or pod");
        }
        if (condition != null && !condition.matches("[A-Za-z0-9][-A-Za-z0-9_./]{0,315}")) {
            throw new IllegalArgumentException("?condition= is a condition's type: Ready, Available, Complete");
        }
        String status = UrlQuery.value(rawQuery, "status");
        if (status != null && (condition == null || !List.of("true", "false", "unknown").contains(status.toLowerCase(Locale.ROOT)))) {
            throw new IllegalArgumentException(condition == null ? "?status= goes with ?condition=" : "?status= is True, False "
                    + "or Unknown");
        }
        String namespace = UrlQuery.value(rawQuery, "namespace");
        if (namespace != null && !namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("?namespace= is a namespace's name (lower case letters, digits and '-')");
        }
        return new KubeQuery(type, kind, name, selector, namespace, condition,
                status == null ? "True" : status.substring(0, 1).toUpperCase(Locale.ROOT) + status.substring(1).toLowerCase(Locale.ROOT),
                endpoints(kind, UrlQuery.value(rawQuery, "endpoints")), absent(kind, UrlQuery.value(rawQuery, "absent")));
    }

    private static int endpoints(ObjectKind kind, String value) {
        if (value == null) {
            return 1;
        }
        if (kind != ObjectKind.SERVICE || !value.matches("[1-9][0-9]{0,4}")) {
            throw new IllegalArgumentException(kind != ObjectKind.SERVICE ? "?endpoints= goes with a Service (k8s://svc/NAME)"
                    : "?endpoints= is how many ready endpoints, from 1 to 99999");
        }
        return Integer.parseInt(value);
    }

    private static boolean absent(ObjectKind kind, String value) {
        if (value == null || value.equals("wait")) {
            return false;
        }
        if (kind != ObjectKind.JOB || !value.equals("ready")) {
            throw new IllegalArgumentException(kind != ObjectKind.JOB ? "?absent= goes with a Job (k8s://job/NAME)"
                    : "?absent= is ready (a Job that does not exist counts as done) or wait (the default)");
        }
        return true;
    }
}
