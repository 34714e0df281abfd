package dev.sidecarwait.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.cyclonedx.Version;
import org.cyclonedx.model.Bom;
import org.cyclonedx.model.Component;
import org.cyclonedx.parsers.JsonParser;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each native binary's SBOM and third-party notices (scripts/native.sh writes them beside the build, and
 * scripts/image.sh puts them in the image) are valid CycloneDX, name the binary as its version line does, and name
 * what the build really used: GraalVM at native/builder/pom.xml's version, the JDK whose version strings the binary
 * carries, picocli at pom.xml's, the musl installed for the target, and the Debian sources the build fetched. Run on
 * each binary (amd64, and arm64 under qemu-user): the figures differ by architecture.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class BinaryBomTest {

    /** Where native.sh writes a binary's SBOM and notices: its build directory. */
    private static Path buildDirectory() {
        return Path.of(SidecarWaitProcess.PLATFORM.equals("linux/arm64") ? "target/native-arm64" : "target/native");
    }

    private static Properties built() throws IOException {
        Properties built = new Properties();
        try (InputStream in = Files.newInputStream(buildDirectory().resolve("components.properties"))) {
            built.load(in);
        }
        return built;
    }

    private static String versionLine() throws IOException, InterruptedException {
        Process process = SidecarWaitProcess.builder("--version").redirectErrorStream(true).start();
        try {
            String line = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(SidecarWaitProcess.exited(process, 30), "--version exits");
            return line;
        } finally {
            SidecarWaitProcess.endTree(process);
        }
    }

    private static String pomProperty(Path pom, String name) throws IOException {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(pom));
        assertTrue(value.find(), pom + " sets " + name);
        return value.group(1);
    }

    private static String command(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + out);
        return out;
    }

    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    void theSbomIsValidCycloneDxAndNamesTheBinaryAndWhatItsBuildUsed() throws Exception {
        Path sbom = buildDirectory().resolve("sidecar-wait.cdx.json");
        assertEquals(List.of(), new JsonParser().validate(sbom.toFile(), Version.VERSION_15).stream()
                .map(Exception::getMessage).toList(), sbom + " against CycloneDX 1.5's schema");
        Bom bom = new JsonParser().parse(sbom.toFile());

        Matcher line = Pattern.compile("^sidecar-wait (\\S+) \\(commit \\S+, (linux/\\w+), native\\)$").matcher(versionLine());
        assertTrue(line.matches(), line.toString());
        Component binary = bom.getMetadata().getComponent();
        assertEquals(line.group(1), binary.getVersion(), "the SBOM's version is the binary's");
        assertEquals(SidecarWaitProcess.PLATFORM, line.group(2));
        assertEquals(line.group(2), binary.getProperties().get(0).getValue());
        byte[] bytes = Files.readAllBytes(SidecarWaitProcess.BINARY);
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)),
                binary.getHashes().get(0).getValue(), "the SBOM describes this very file");
        assertEquals("Apache-2.0", binary.getLicenses().getExpression().getValue());

        Properties built = built();
        String distro = command("sh", "-c", ". /etc/os-release && echo \"$ID-$VERSION_ID\"");
        String graalvm = pomProperty(Path.of("native/builder/pom.xml"), "graalvm.version");
        String musl = command("dpkg-query", "-W", "-f=${source:Version}", "musl-dev:" + SidecarWaitProcess.PLATFORM.substring(6));
        assertEquals(graalvm, built.getProperty("graalvm.version"));
        assertEquals(musl, built.getProperty("debian.musl"), "the musl installed for the target is the one recorded");
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains(built.getProperty("jdk.runtime.version")), "the binary carries its JDK's version");
        assertTrue(text.contains(built.getProperty("jdk.implementor.version")), "and its vendor's");
        assertTrue(text.contains(graalvm), "and GraalVM's");

        Map<String, Component> byPurl = new TreeMap<>();
        bom.getComponents().forEach(component -> byPurl.put(component.getPurl(), component));
        String zlib = built.getProperty("debian.zlib");
        List<String> expected = List.of(
                "pkg:maven/info.picocli/picocli@" + pomProperty(Path.of("pom.xml"), "picocli.version") + "?type=jar",
                "pkg:maven/org.graalvm.nativeimage/svm@" + graalvm + "?type=jar",
                "pkg:maven/org.graalvm.nativeimage/svm-configure@" + graalvm + "?type=jar",
                "pkg:maven/org.graalvm.compiler/compiler@" + graalvm + "?type=jar",
                "pkg:maven/org.graalvm.sdk/nativeimage@" + graalvm + "?type=jar",
                "pkg:maven/org.graalvm.sdk/word@" + graalvm + "?type=jar",
                "pkg:maven/org.graalvm.sdk/collections@" + graalvm + "?type=jar",
                "pkg:generic/openjdk@" + built.getProperty("jdk.runtime.version").replace("+", "%2B"),
                "pkg:deb/debian/openjdk-17@" + built.getProperty("debian.openjdk-17").replace("+", "%2B")
                        + "?arch=source&distro=" + distro,
                "pkg:deb/debian/zlib@" + zlib.substring(zlib.indexOf(':') + 1) + "?arch=source&distro=" + distro
                        + (zlib.contains(":") ? "&epoch=" + zlib.substring(0, zlib.indexOf(':')) : ""),
                "pkg:deb/debian/musl@" + musl + "?arch=source&distro=" + distro,
                "pkg:deb/debian/mbedtls@" + built.getProperty("debian.mbedtls") + "?arch=source&distro=debian-13");
        assertEquals(expected.stream().sorted().toList(), List.copyOf(byPurl.keySet()), "every component, and only those");
        for (Component component : bom.getComponents()) {
            assertNotNull(component.getLicenses(), component.getPurl());
            assertTrue(component.getLicenses().getExpression().getValue().matches("[A-Za-z0-9.\\- ]+"), component.getPurl());
        }
        assertEquals("GPL-2.0-only WITH Classpath-exception-2.0", byPurl.get(expected.get(1)).getLicenses().getExpression().getValue());
        assertEquals("cpe:2.3:a:musl-libc:musl:" + musl.replaceAll("-[^-]*$", "") + ":*:*:*:*:*:*:*",
                byPurl.get(expected.get(10)).getCpe());
        assertEquals("cpe:2.3:a:arm:mbed_tls:3.6.6:*:*:*:*:*:*:*", byPurl.get(expected.get(11)).getCpe(),
                "Mbed TLS as the NVD files it");
        assertTrue(built.getProperty("debian.mbedtls").startsWith("3.6.6-"), "native/tls/ is written for Mbed TLS 3.6.6");
    }

    /** The module or jar names the builder gives its code's origins, for GraalVM's own: the artifact each is. */
    private static final Map<String, String> GRAALVM_ORIGINS = Map.of(
            "svm.jar", "org.graalvm.nativeimage/svm", "org.graalvm.nativeimage.configure", "org.graalvm.nativeimage/svm-configure",
            "jdk.graal.compiler", "org.graalvm.compiler/compiler", "org.graalvm.nativeimage", "org.graalvm.sdk/nativeimage",
            "org.graalvm.word", "org.graalvm.sdk/word", "org.graalvm.collections", "org.graalvm.sdk/collections");

    /**
     * Every GraalVM origin of the image's code that the builder reports (build.log's top origins of the code area) is a
     * component of the SBOM: a GraalVM whose image brings code from another of its jars fails here, not in a scanner.
     */
    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    void everyGraalVmOriginOfTheImagesCodeTheBuilderReportsIsInTheSbom() throws Exception {
        List<String> log = Files.readAllLines(buildDirectory().resolve("build.log"));
        int at = 0;
        while (!log.get(at).startsWith("Top 10 origins of code area:")) {
            at++;
        }
        List<String> origins = new java.util.ArrayList<>();
        for (String line : log.subList(at + 1, at + 11)) {
            Matcher origin = Pattern.compile("^\\s*[0-9.]+[kMG]?B (\\S+)").matcher(line);
            if (origin.find()) {
                origins.add(origin.group(1));
            }
        }
        assertTrue(origins.contains("java.base") && origins.contains("svm.jar"), "read the origins: " + origins);
        String sbom = Files.readString(buildDirectory().resolve("sidecar-wait.cdx.json"));
        for (String origin : origins) {
            if (origin.startsWith("org.graalvm") || origin.startsWith("jdk.graal") || origin.equals("svm.jar")) {
                String artifact = GRAALVM_ORIGINS.get(origin);
                assertNotNull(artifact, "a GraalVM origin of the image's code this test does not know: " + origin);
                assertTrue(sbom.contains("\"pkg:maven/" + artifact + "@"), origin + " is in the SBOM as " + artifact);
            }
        }
    }

    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    void theNoticesNameEveryComponentOfTheSbomWithItsLicenceAndCarryTheTexts() throws Exception {
        Bom bom = new JsonParser().parse(buildDirectory().resolve("sidecar-wait.cdx.json").toFile());
        String notices = Files.readString(buildDirectory().resolve("THIRD-PARTY-NOTICES.txt"));
        assertTrue(notices.startsWith("sidecar-wait " + bom.getMetadata().getComponent().getVersion() + " for "
                + SidecarWaitProcess.PLATFORM + ": third-party notices\n"), notices.lines().findFirst().orElse(""));
        for (Component component : bom.getComponents()) {
            String name = (component.getGroup() == null ? "" : component.getGroup() + ":") + component.getName();
            assertTrue(notices.contains(". " + name + " " + component.getVersion() + "\n"), name);
            int at = notices.indexOf(". " + name + " " + component.getVersion() + "\n");
            assertTrue(notices.indexOf("   Licence: " + component.getLicenses().getExpression().getValue() + "\n", at) > at, name);
        }
        for (String text : List.of("Apache License", "GNU General Public License", "\"CLASSPATH\" EXCEPTION TO THE GPL",
                "The Universal Permissive License (UPL), Version 1.0", "Jean-loup Gailly", "Rich Felker")) {
            assertTrue(notices.contains(text), "the notices carry " + text);
        }
    }
}
