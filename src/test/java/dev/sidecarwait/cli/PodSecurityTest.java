package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every example would be admitted into a namespace that enforces the Pod Security Standards' restricted level (what
 * OpenShift applies to new namespaces, and careful platform teams to application namespaces), checked with the
 * admission controller's own rules ({@link RestrictedProfile}).
 */
class PodSecurityTest {

    @Test
    void everyExampleIsAdmittedUnderRestricted() throws IOException {
        List<String> violations = new ArrayList<>();
        int pods = 0;
        try (Stream<Path> files = Files.list(Path.of("examples/kubernetes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode document : ManifestModelTest.documents(file)) {
                    PodSpec pod = RestrictedProfile.podSpec(ManifestModelTest.YAML.treeToValue(document,
                            ManifestModelTest.model(file, document)));
                    if (pod == null) {
                        continue;
                    }
                    RestrictedProfile.violations(pod).forEach(violation -> violations.add(file.getFileName() + " "
                            + document.at("/metadata/name").asText() + ": " + violation));
                    pods++;
                }
            }
        }
        assertTrue(pods >= 10, "read " + pods + " pod templates");
        assertEquals(List.of(), violations);
    }

    /** The rules catch what they are for: an example as it was before (no securityContext anywhere) is refused. */
    @Test
    void aPodWithoutSecurityContextsIsRefusedForEachRule() throws IOException {
        JsonNode original = ManifestModelTest.documents(Path.of("examples/kubernetes/app-entrypoint-wrapper.yaml")).get(0);
        ObjectNode bare = original.deepCopy();
        ObjectNode spec = (ObjectNode) bare.at("/spec/template/spec");
        spec.remove("securityContext");
        for (JsonNode container : spec.withArray("containers")) {
            ((ObjectNode) container).remove("securityContext");
        }
        for (JsonNode container : spec.withArray("initContainers")) {
            ((ObjectNode) container).remove("securityContext");
        }
        List<String> violations = RestrictedProfile.violations(ManifestModelTest.YAML.treeToValue(bare, Deployment.class)
                .getSpec().getTemplate().getSpec());
        for (String rule : List.of("allowPrivilegeEscalation must be false", "capabilities.drop must include ALL",
                "runAsNonRoot must be true", "seccompProfile.type must be RuntimeDefault or Localhost")) {
            assertTrue(violations.stream().anyMatch(violation -> violation.contains(rule)), rule + ": " + violations);
        }

        ObjectNode root = original.deepCopy();
        ((ObjectNode) root.at("/spec/template/spec/securityContext")).put("runAsUser", 0);
        ((ObjectNode) root.at("/spec/template/spec")).withArray("volumes").addObject().put("name", "host")
                .putObject("hostPath").put("path", "/var/run");
        List<String> more = RestrictedProfile.violations(ManifestModelTest.YAML.treeToValue(root, Deployment.class)
                .getSpec().getTemplate().getSpec());
        assertTrue(more.contains("pod: securityContext.runAsUser must not be 0") && more.contains("volume host: a restricted "
                + "volume type"), more.toString());
    }
}
