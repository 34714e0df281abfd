package dev.sidecarwait.kube;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Service, by its EndpointSlices (discovery.k8s.io/v1, labelled kubernetes.io/service-name): ready with at least
 * {@code wanted} ready endpoints across them. A ready condition left unset counts as ready, as the API's own
 * documentation of EndpointConditions asks of consumers. An endpoint counts once however many slices hold it: the
 * same pod in an IPv4 and an IPv6 slice (dual-stack), or one address in two slices while the controller moves it
 * (the duplicates the EndpointSlice documentation tells consumers to expect). It is its target (targetRef: a pod) or,
 * without one, its first address; ready when any of its copies is.
 */
final class EndpointsJudge {

    private EndpointsJudge() {
    }

    static Verdict judge(Collection<JsonFields> slices, int wanted, String service) {
        if (slices.isEmpty()) {
            return Verdict.waiting("no EndpointSlice for Service " + service + " yet (is there such a Service, with a "
                    + "selector?)");
        }
        Map<String, Boolean> endpoints = new LinkedHashMap<>();
        for (JsonFields slice : slices) {
            for (JsonFields endpoint : slice.at("endpoints").items()) {
                JsonFields condition = endpoint.at("conditions", "ready");
                endpoints.merge(identity(endpoint), !condition.present() || condition.isTrue(), Boolean::logicalOr);
            }
        }
        long ready = endpoints.values().stream().filter(Boolean::booleanValue).count();
        String counted = ready + " ready endpoint" + (ready == 1 ? "" : "s") + " of " + endpoints.size();
        return ready >= wanted ? Verdict.ready(counted) : Verdict.waiting(counted + " (" + wanted + " wanted)");
    }

    private static String identity(JsonFields endpoint) {
        JsonFields target = endpoint.at("targetRef");
        String name = target.at("name").text();
        if (name != null) {
            return "target " + target.at("kind").text("") + "/" + target.at("namespace").text("") + "/" + name;
        }
        return "address " + endpoint.at("addresses").items().stream().map(address -> address.text("")).findFirst().orElse("");
    }
}
