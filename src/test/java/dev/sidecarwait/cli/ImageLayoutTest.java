package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The paths the examples run the binary at agree with where the Dockerfile puts it in the image: the init container
 * runs the image's own binary; a container that mounts the image as a volume finds it under the mount point.
 */
class ImageLayoutTest {

    /** The binary's path in the image: where the Dockerfile copies the native binary of the platform built, which ENTRYPOINT runs. */
    private static String binaryInTheImage() throws IOException {
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertTrue(dockerfile.contains("\nFROM scratch\n"), "the binary alone: " + dockerfile);
        Matcher copy = Pattern.compile("COPY --chmod=0755 \\$\\{TARGETOS}/\\$\\{TARGETARCH}/sidecar-wait (\\S+)").matcher(dockerfile);
        assertTrue(copy.find(), "the image copies the binary of its platform: " + dockerfile);
        assertTrue(dockerfile.contains("ENTRYPOINT [\"" + copy.group(1) + "\"]"), dockerfile);
        assertTrue(dockerfile.contains("USER 65532:65532"), "the image runs as a non-root user: " + dockerfile);
        assertTrue(dockerfile.contains("COPY --chmod=0644 ${TARGETOS}/${TARGETARCH}/sidecar-wait.cdx.json "
                + "${TARGETOS}/${TARGETARCH}/THIRD-PARTY-NOTICES.txt /\n"), "its platform's SBOM and notices beside the binary: " + dockerfile);
        return copy.group(1);
    }

    /**
     * A kubelet hands the runtime only the image's uid; the runtime takes the group from the image's /etc/passwd
     * (kubernetes#61967). The image carries entries that give USER's uid the group USER names.
     */
    @Test
    void theImagesPasswdGivesItsUserTheGroupItsUserLineNames() throws IOException {
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        Matcher user = Pattern.compile("\nUSER (\\d+):(\\d+)\n").matcher(dockerfile);
        assertTrue(user.find(), dockerfile);
        assertTrue(dockerfile.contains("COPY --chmod=0644 etc/passwd etc/group /etc/\n"), dockerfile);
        List<String> passwd = Files.readAllLines(Path.of("image/etc/passwd"));
        assertTrue(passwd.stream().anyMatch(line -> line.matches("[a-z]+:x:" + user.group(1) + ":" + user.group(2) + ":.*")),
                "/etc/passwd gives uid " + user.group(1) + " group " + user.group(2) + ": " + passwd);
        assertTrue(Files.readAllLines(Path.of("image/etc/group")).stream().anyMatch(line -> line.matches("[a-z]+:x:" + user.group(2) + ":")),
                "/etc/group names group " + user.group(2));
    }

    private static PodSpec pod(String example) throws IOException {
        Path file = Path.of("examples/kubernetes", example);
        JsonNode document = ManifestModelTest.documents(file).get(0);
        return RestrictedProfile.podSpec(ManifestModelTest.YAML.treeToValue(document, ManifestModelTest.model(file, document)));
    }

    @Test
    void theInitContainerRunsTheImagesOwnBinary() throws IOException {
        Container install = pod("install-init-container.yaml").getInitContainers().get(0);
        assertEquals(List.of(binaryInTheImage(), "install", "/shared"), install.getCommand());
    }

    @Test
    void aContainerThatMountsTheImageFindsTheBinaryUnderTheMountPoint() throws IOException {
        PodSpec pod = pod("image-volume.yaml");
        Volume image = pod.getVolumes().stream().filter(volume -> volume.getImage() != null).findFirst().orElseThrow();
        assertTrue(image.getImage().getReference().startsWith("registry.example.com/sidecar-wait:"), image.toString());
        Container app = pod.getContainers().get(0);
        VolumeMount mount = app.getVolumeMounts().stream().filter(m -> m.getName().equals(image.getName())).findFirst().orElseThrow();
        assertEquals(mount.getMountPath() + binaryInTheImage(), app.getCommand().get(0));
        assertEquals("/sidecar-wait/sidecar-wait", app.getCommand().get(0), "the same path as the init-container form");
    }
}
