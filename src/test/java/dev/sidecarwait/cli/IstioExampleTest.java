package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.istio.api.api.networking.v1alpha3.LoadBalancerSettings;
import io.fabric8.istio.api.api.networking.v1alpha3.LoadBalancerSettingsSimple;
import io.fabric8.istio.api.api.networking.v1alpha3.WarmupConfiguration;
import io.fabric8.istio.api.networking.v1.DestinationRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Istio examples (examples/istio) read with Istio's API as a Java model (fabric8's istio-model, generated from
 * istio/api), strictly as ManifestModelTest reads the pods: no field the model does not know, anywhere. Then what the
 * model does not hold and Istio's CRD schema and validation do (istio/api networking/v1alpha3/destination_rule.proto's
 * kubebuilder bounds): warmup's minimumPercent within 0 to 100, an aggression every release with warmup accepts (1 or
 * more: below 1 only since istio/istio#60611), a duration as Go writes one, and a load balancer that ramps up.
 */
class IstioExampleTest {

    private static final Path EXAMPLES = Path.of("examples/istio");

    static List<String> problems(JsonNode document) throws IOException {
        List<String> problems = new ArrayList<>();
        if (!document.path("apiVersion").asText().equals("networking.istio.io/v1")
                || !document.path("kind").asText().equals("DestinationRule")) {
            problems.add("not a networking.istio.io/v1 DestinationRule");
            return problems;
        }
        DestinationRule rule = ManifestModelTest.YAML.treeToValue(document, DestinationRule.class);
        ManifestModelTest.unknownFields(rule).forEach(field -> problems.add("unknown field " + field));
        String host = rule.getSpec().getHost();
        if (host == null || !host.endsWith(".svc.cluster.local")) {
            problems.add("host '" + host + "' is not fully qualified (Istio reads a short name in the rule's namespace)");
        }
        LoadBalancerSettings balancer = rule.getSpec().getTrafficPolicy().getLoadBalancer();
        WarmupConfiguration warmup = balancer.getWarmup();
        if (warmup == null) {
            problems.add("no warmup");
            return problems;
        }
        if (balancer.getWarmupDurationSecs() != null) {
            problems.add("warmupDurationSecs beside warmup");
        }
        if (!(balancer.getLbPolicy() instanceof LoadBalancerSettingsSimple simple)
                || !List.of("ROUND_ROBIN", "LEAST_REQUEST").contains(String.valueOf(simple.getSimple()))) {
            problems.add("warmup ramps up only with simple: ROUND_ROBIN or LEAST_REQUEST");
        }
        if (warmup.getDuration() == null || !warmup.getDuration().matches("(\\d+(\\.\\d+)?(h|m|s|ms))+")) {
            problems.add("duration '" + warmup.getDuration() + "' is not a duration");
        }
        if (warmup.getMinimumPercent() != null && (warmup.getMinimumPercent() < 0 || warmup.getMinimumPercent() > 100)) {
            problems.add("minimumPercent " + warmup.getMinimumPercent() + " is not within 0 to 100");
        }
        if (warmup.getAggression() != null && warmup.getAggression() < 1) {
            problems.add("aggression " + warmup.getAggression() + " is refused by Istio releases before istio/istio#60611");
        }
        return problems;
    }

    @Test
    void everyIstioExampleIsAWarmUpRuleIstioAccepts() throws IOException {
        int read = 0;
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode document : ManifestModelTest.documents(file)) {
                    assertEquals(List.of(), problems(document), file.toString());
                    read++;
                }
            }
        }
        assertEquals(1, read);
        DestinationRule rule = ManifestModelTest.YAML.treeToValue(
                ManifestModelTest.documents(EXAMPLES.resolve("warm-up-destination-rule.yaml")).get(0), DestinationRule.class);
        WarmupConfiguration warmup = rule.getSpec().getTrafficPolicy().getLoadBalancer().getWarmup();
        assertEquals("120s", warmup.getDuration());
        assertEquals(10.0, warmup.getMinimumPercent());
        assertNotNull(warmup.getAggression());
        assertNull(rule.getSpec().getTrafficPolicy().getLoadBalancer().getWarmupDurationSecs());
        assertTrue(Files.readString(Path.of("docs/kubernetes.md")).contains("(../examples/istio/warm-up-destination-rule.yaml)"),
                "docs/kubernetes.md links the example");
    }

    /** The checks catch what they are for: a misspelled field, a percentage out of range, both spellings at once. */
    @Test
    void aWrongRuleIsFound() throws IOException {
        JsonNode original = ManifestModelTest.documents(EXAMPLES.resolve("warm-up-destination-rule.yaml")).get(0);
        ObjectNode misspelled = original.deepCopy();
        ObjectNode warmup = (ObjectNode) misspelled.at("/spec/trafficPolicy/loadBalancer/warmup");
        warmup.set("minimumPercentage", warmup.remove("minimumPercent"));
        assertEquals(List.of("unknown field spec.trafficPolicy.loadBalancer.warmup.minimumPercentage"), problems(misspelled));

        ObjectNode wrong = original.deepCopy();
        ObjectNode balancer = (ObjectNode) wrong.at("/spec/trafficPolicy/loadBalancer");
        ((ObjectNode) balancer.get("warmup")).put("minimumPercent", 150);
        ((ObjectNode) balancer.get("warmup")).put("aggression", 0.5);
        balancer.put("warmupDurationSecs", "60s");
        balancer.put("simple", "RANDOM");
        assertEquals(List.of("warmupDurationSecs beside warmup", "warmup ramps up only with simple: ROUND_ROBIN or LEAST_REQUEST",
                "minimumPercent 150.0 is not within 0 to 100",
                "aggression 0.5 is refused by Istio releases before istio/istio#60611"), problems(wrong));
    }
}
