package dev.sidecarwait.cli;

import dev.sidecarwait.kube.ApiServer;
import dev.sidecarwait.probe.Target;
import java.util.List;

/** The API server, settled once when a k8s:// target is given (else null); whatever is missing is a usage error. */
final class KubeSettings {

    private KubeSettings() {
    }

    /** {@code skipped}: the wait will not run (disabled, or outside Kubernetes when asked to skip there). */
    static ApiServer settle(List<Target> given, Env env, boolean skipped) {
        List<Target.Kube> objects = given.stream().filter(Target.Kube.class::isInstance).map(Target.Kube.class::cast).toList();
        if (objects.isEmpty() || skipped) {
            return null;
        }
        ApiServer api;
        try {
            api = ApiServer.inCluster(env::get);
        } catch (IllegalArgumentException e) {
            throw new UsageError(objects.get(0).text() + ": " + e.getMessage());
        }
        for (Target.Kube object : objects) {
            if (object.query().namespace() == null && api.namespace() == null) {
                throw new UsageError(object.text() + ": no namespace: neither POD_NAMESPACE nor "
                        + ApiServer.ACCOUNT.resolve("namespace") + " says the pod's own; name one: ?namespace=NAME");
            }
        }
        return api;
    }
}
