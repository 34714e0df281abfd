package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/**
 * A release's version comes from one place, pom.xml: the version line says it, and CHANGELOG.md's newest release is
 * it. (Each binary's SBOM is held to the binary's --version by BinaryBomTest, the image's labels, annotations and tag
 * by scripts/image.sh.)
 */
class VersionAgreementTest {

    private static String pomVersion() throws Exception {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        var project = pom.getDocumentElement();
        for (var node = project.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node.getNodeName().equals("version")) {
                return node.getTextContent().trim();
            }
        }
        throw new AssertionError("pom.xml has no <version>");
    }

    @Test
    void theVersionLineSaysThePomsVersion() throws Exception {
        assertEquals(pomVersion(), Version.VERSION);
        CliRun run = CliRun.run(Map.of(), "--version");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("sidecar-wait " + pomVersion() + " ("), run.out());
    }

    @Test
    void theChangelogsNewestReleaseIsThePomsVersion() throws Exception {
        String changelog = Files.readString(Path.of("CHANGELOG.md"));
        Matcher release = Pattern.compile("(?m)^## \\[(\\d+\\.\\d+\\.\\d+)] - (\\d{4}-\\d{2}-\\d{2})$").matcher(changelog);
        assertTrue(release.find(), "CHANGELOG.md has a dated release heading");
        assertEquals(pomVersion(), release.group(1), "the newest release in CHANGELOG.md");
        assertTrue(changelog.indexOf("## [Unreleased]") < release.start(), "Unreleased stays on top");
        assertTrue(changelog.contains("\n[" + release.group(1) + "]: "), "the release heading's link");
    }

    @Test
    void thePomAndTheLicenseFileSayApache20() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        assertTrue(pom.contains("<name>Apache-2.0</name>"), "pom.xml names the licence, which the SBOM carries");
        assertTrue(Files.readString(Path.of("LICENSE")).contains("Apache License\n                           Version 2.0"));
    }
}
