package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The example manifests read with Kubernetes' own object model (fabric8's kubernetes-model), strictly: fabric8
 * keeps any field it does not know in each object's additionalProperties instead of refusing it, so every object
 * of the tree is searched for one. A misspelled field ("comand") or one at the wrong level (postStart beside
 * lifecycle instead of in it) fails here, where the API server would reject or, worse, silently drop it. The same walk
 * reads Istio's objects (IstioExampleTest).
 */
class ManifestModelTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void everyManifestIsAKubernetesObjectWithNoFieldKubernetesDoesNotKnow() throws IOException {
        List<String> read = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("examples/kubernetes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode document : documents(file)) {
                    KubernetesResource object = YAML.treeToValue(document, model(file, document));
                    assertEquals(List.of(), unknownFields(object), file + ": fields Kubernetes does not know");
                    read.add(document.get("kind").asText());
                }
            }
        }
        assertTrue(read.containsAll(List.of("Deployment", "CronJob", "Pod")), "the walk read the examples: " + read);
    }

    @Test
    void aMisspelledOrMisplacedFieldIsFound() throws IOException {
        JsonNode original = documents(Path.of("examples/kubernetes/istio-poststart-hook.yaml")).get(0);
        ObjectNode misspelled = original.deepCopy();
        ObjectNode container = (ObjectNode) misspelled.at("/spec/template/spec/containers/0");
        container.set("comand", container.remove("command"));
        assertEquals(List.of("spec.template.spec.containers[0].comand"),
                unknownFields(YAML.treeToValue(misspelled, Deployment.class)));

        ObjectNode misplaced = original.deepCopy();
        ObjectNode proxy = (ObjectNode) misplaced.at("/spec/template/spec/containers/0");
        proxy.set("postStart", ((ObjectNode) proxy.get("lifecycle")).remove("postStart"));
        assertEquals(List.of("spec.template.spec.containers[0].postStart"),
                unknownFields(YAML.treeToValue(misplaced, Deployment.class)));
    }

    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
            var values = YAML.readValues(parser, JsonNode.class);
            while (values.hasNext()) {
                JsonNode document = values.next();
                if (document != null && !document.isNull() && !document.isEmpty()) {
                    documents.add(document);
                }
            }
        }
        return documents;
    }

    static Class<? extends KubernetesResource> model(Path file, JsonNode document) {
        String type = document.path("apiVersion").asText() + " " + document.path("kind").asText();
        return switch (type) {
            case "apps/v1 Deployment" -> Deployment.class;
            case "batch/v1 CronJob" -> CronJob.class;
            case "batch/v1 Job" -> Job.class;
            case "v1 Pod" -> Pod.class;
            case "v1 ServiceAccount" -> io.fabric8.kubernetes.api.model.ServiceAccount.class;
            case "rbac.authorization.k8s.io/v1 Role" -> io.fabric8.kubernetes.api.model.rbac.Role.class;
            case "rbac.authorization.k8s.io/v1 RoleBinding" -> io.fabric8.kubernetes.api.model.rbac.RoleBinding.class;
            default -> throw new AssertionError(file + ": no model for " + type + " here; add it");
        };
    }

    /** The path of every field fabric8 kept aside as unknown, anywhere in the object. */
    static List<String> unknownFields(Object root) {
        List<String> unknown = new ArrayList<>();
        walk(root, "", unknown, new IdentityHashMap<>());
        return unknown;
    }

    private static void walk(Object object, String path, List<String> unknown, Map<Object, Boolean> seen) {
        if (object == null || seen.put(object, true) != null) {
            return;
        }
        if (object instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (object instanceof Map<?, ?> map) {
            map.forEach((key, value) -> walk(value, path + "." + key, unknown, seen));
            return;
        }
        String model = object.getClass().getName();
        if (object instanceof Enum<?> || !model.startsWith("io.fabric8.kubernetes.api.model") && !model.startsWith("io.fabric8.istio.api")) {
            return;
        }
        for (Class<?> type = object.getClass(); type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                field.setAccessible(true);
                Object value;
                try {
                    value = field.get(object);
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                if (field.getName().equals("additionalProperties")) {
                    ((Map<?, ?>) value).keySet().forEach(key -> unknown.add((path.isEmpty() ? "" : path + ".") + key));
                } else {
                    walk(value, (path.isEmpty() ? "" : path + ".") + field.getName(), unknown, seen);
                }
            }
        }
    }
}
