package dev.sidecarwait.kube;

import java.util.Collection;

/**
 * A Service, by its EndpointSlices (discovery.k8s.io/v1, labelled kubernetes.io/service-name): ready with at least
 * {@code wanted} ready endpoints across them. A ready condition left unset counts as ready, as the API's own
 * documentation of EndpointConditions asks of consumers.
 */
final class EndpointsJudge {

    private EndpointsJudge() {
    }

    static Verdict judge(Collection<JsonFields> slices, int wanted, String service) {
        if (slices.isEmpty()) {
            return Verdict.waiting("no EndpointSlice for Service " + service + " yet (is there such a Service, with a "
                    + "selector?)");
        }
        long ready = 0;
        long all = 0;
        for (JsonFields slice : slices) {
            for (JsonFields endpoint : slice.at("endpoints").items()) {
                all++;
                JsonFields condition = endpoint.at("conditions", "ready");
                if (!condition.present() || condition.isTrue()) {
                    ready++;
                }
            }
        }
        String counted = ready + " ready endpoint" + (ready == 1 ? "" : "s") + " of " + all;
        return ready >= wanted ? Verdict.ready(counted) : Verdict.waiting(counted + " (" + wanted + " wanted)");
    }
}
