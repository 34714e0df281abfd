import dev.sidecarwait.output.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The native binary's CycloneDX SBOM and third-party notices, from what scripts/native.sh recorded of the build
 * (components.properties: the Debian source packages it compiled, the musl it linked, the JDK and GraalVM it built
 * with), the jar's own SBOM (sidecar-wait and picocli, as Maven resolved them), GraalVM's POMs (their licences) and
 * the licence files of those very sources (legal/). Run by native.sh after each build:
 *
 *   java -cp target/classes BinaryBom.java components.properties target/sidecar-wait.cdx.xml BINARY POM-DIR LEGAL-DIR OUT-DIR
 *
 * writes OUT-DIR/sidecar-wait.cdx.json and OUT-DIR/THIRD-PARTY-NOTICES.txt. Every component carries a package URL
 * scanners match (Maven coordinates for the Java parts, Debian source packages for the C parts) and a CPE where the
 * NVD files advisories under one. The project's own JSON quoting (output/Json) writes its strings.
 */
public final class BinaryBom {

    private static final String GPL_CPE = "GPL-2.0-only WITH Classpath-exception-2.0";

    /** One component of the binary, and the notice it gets. */
    record Component(String ref, String name, String group, String version, String licence, String purl, String cpe,
                     String description, String source) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: BinaryBom components.properties JAR-SBOM.xml BINARY POM-DIR LEGAL-DIR OUT-DIR");
            System.exit(2);
        }
        Properties built = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            built.load(in);
        }
        Element jarBom = xml(Path.of(args[1])).getDocumentElement();
        Path binary = Path.of(args[2]);
        Element self = child(child(jarBom, "metadata"), "component");
        String version = text(self, "version");
        List<Component> components = new ArrayList<>();
        for (Element component : children(child(jarBom, "components"), "component")) {
            components.add(new Component(text(component, "purl"), text(component, "name"), text(component, "group"),
                    text(component, "version"), licences(component), text(component, "purl"), null,
                    text(component, "description"), "Maven Central: " + text(component, "group") + ":"
                    + text(component, "name") + ":" + text(component, "version") + " (its -sources jar)"));
        }
        components.addAll(graalvm(built, Path.of(args[3])));
        components.addAll(jdkAndC(built));
        String arch = required(built, "arch");
        Path out = Path.of(args[5]);
        Files.writeString(out.resolve("sidecar-wait.cdx.json"), json(built, self, version, sha256(binary), components));
        Files.writeString(out.resolve("THIRD-PARTY-NOTICES.txt"), notices(arch, version, components, Path.of(args[4])));
    }

    /** GraalVM's runtime parts, the jars whose code the image holds, each with the licence its POM names. */
    static List<Component> graalvm(Properties built, Path poms) throws Exception {
        String version = required(built, "graalvm.version");
        List<Component> parts = new ArrayList<>();
        for (String coordinates : required(built, "graalvm.runtime").split(",")) {
            String[] ga = coordinates.trim().split(":");
            Path pom = poms.resolve(ga[1] + "-" + version + ".pom");
            Element project = xml(pom).getDocumentElement();
            String name = child(child(project, "licenses"), "license").getElementsByTagName("name").item(0).getTextContent();
            String licence = switch (name.trim()) {
                case "GNU General Public License, version 2, with the Classpath Exception" -> GPL_CPE;
                case "Universal Permissive License, Version 1.0" -> "UPL-1.0";
                default -> throw new IllegalStateException(pom + ": a licence this writer does not know: " + name);
            };
            String purl = "pkg:maven/" + ga[0] + "/" + ga[1] + "@" + version + "?type=jar";
            parts.add(new Component(purl, ga[1], ga[0], version, licence, purl,
                    "cpe:2.3:a:oracle:graalvm:" + version + ":*:*:*:community:*:*:*",
                    "GraalVM Community " + version + ": " + text(project, "description"),
                    "Maven Central: " + coordinates.trim() + ":" + version + " (its -sources jar); github.com/oracle/graal, tag vm-" + version));
        }
        return parts;
    }

    /** The JDK's class library, OpenJDK's C, zlib, Mbed TLS and musl, as native.sh built them. */
    static List<Component> jdkAndC(Properties built) {
        String distro = required(built, "distro");
        String jdk = required(built, "jdk.version");
        String jdkRuntime = required(built, "jdk.runtime.version");
        String implementor = required(built, "jdk.implementor");
        String jdkPurl = "pkg:generic/openjdk@" + jdkRuntime.replace("+", "%2B");
        List<Component> parts = new ArrayList<>();
        parts.add(new Component(jdkPurl, "openjdk", null, jdkRuntime, GPL_CPE, jdkPurl,
                "cpe:2.3:a:oracle:openjdk:" + jdk + ":*:*:*:*:*:*:*",
                "OpenJDK's Java class library (java.base and the modules the image reaches), compiled into the image: "
                        + implementor + " " + required(built, "jdk.implementor.version"),
                "the JDK's lib/src.zip" + (built.getProperty("jdk.source", "").isBlank() ? ""
                        : "; " + built.getProperty("jdk.source").trim())));
        parts.add(debian(distro, "openjdk-17", required(built, "debian.openjdk-17"), GPL_CPE, "oracle:openjdk",
                "OpenJDK 17's C for the static libjava, libnet, libnio and libzip (patched for JDK 25: native/jdk/)"));
        parts.add(debian(distro, "zlib", required(built, "debian.zlib"), "Zlib", "zlib:zlib", "zlib, for libzip"));
        parts.add(debian(required(built, "debian.mbedtls.distro"), "mbedtls", required(built, "debian.mbedtls"), "Apache-2.0 OR GPL-2.0-or-later",
                "arm:mbed_tls", "Mbed TLS, the TLS client (configured and patched by native/tls/), with its engine swtls.c"));
        parts.add(debian(distro, "musl", required(built, "debian.musl"), "MIT", "musl-libc:musl",
                "musl, the C library the binary is statically linked against"));
        return parts;
    }

    /** A Debian source package: its package URL (epoch as a qualifier) and its upstream version for the CPE. */
    static Component debian(String distro, String name, String debianVersion, String licence, String cpeVendorProduct,
                            String description) {
        String epoch = debianVersion.contains(":") ? debianVersion.substring(0, debianVersion.indexOf(':')) : null;
        String version = epoch == null ? debianVersion : debianVersion.substring(epoch.length() + 1);
        String upstream = version.replaceAll("-[^-]*$", "").replaceAll("[.+~]dfsg.*$", "").replaceAll("\\+.*$", "");
        String purl = "pkg:deb/debian/" + name + "@" + version.replace("+", "%2B") + "?arch=source&distro=" + distro
                + (epoch == null ? "" : "&epoch=" + epoch);
        return new Component(purl, name, null, debianVersion, licence, purl,
                "cpe:2.3:a:" + cpeVendorProduct + ":" + upstream + ":*:*:*:*:*:*:*", description,
                "Debian's source package " + name + " " + debianVersion + " (" + distro + "), as apt-get source fetches it");
    }

    static String json(Properties built, Element self, String version, String binarySha256, List<Component> components) {
        StringBuilder out = new StringBuilder();
        String platform = "linux/" + required(built, "arch");
        out.append("{\n  \"bomFormat\": \"CycloneDX\",\n  \"specVersion\": \"1.5\",\n  \"version\": 1,\n");
        out.append("  \"metadata\": {\n    \"timestamp\": ").append(Json.quote(required(built, "timestamp"))).append(",\n");
        out.append("    \"tools\": {\"components\": [{\"type\": \"application\", \"name\": \"scripts/native.sh\", \"version\": ")
                .append(Json.quote(version)).append("}]},\n");
        String purl = "pkg:generic/sidecar-wait@" + version + "?platform=" + platform.replace("/", "%2F");
        out.append("    \"component\": {\"type\": \"application\", \"bom-ref\": ").append(Json.quote(purl))
                .append(", \"name\": \"sidecar-wait\", \"version\": ").append(Json.quote(version))
                .append(", \"description\": ").append(Json.quote(text(self, "description") + " The native binary for " + platform + "."))
                .append(",\n      \"licenses\": [{\"expression\": ").append(Json.quote(licences(self))).append("}]")
                .append(", \"purl\": ").append(Json.quote(purl))
                .append(",\n      \"hashes\": [{\"alg\": \"SHA-256\", \"content\": ").append(Json.quote(binarySha256)).append("}]")
                .append(",\n      \"properties\": [{\"name\": \"platform\", \"value\": ").append(Json.quote(platform)).append("}]}\n  },\n");
        out.append("  \"components\": [\n");
        for (int i = 0; i < components.size(); i++) {
            Component c = components.get(i);
            out.append("    {\"type\": \"library\", \"bom-ref\": ").append(Json.quote(c.ref()));
            if (c.group() != null) {
                out.append(", \"group\": ").append(Json.quote(c.group()));
            }
            out.append(", \"name\": ").append(Json.quote(c.name())).append(", \"version\": ").append(Json.quote(c.version()))
                    .append(",\n      \"description\": ").append(Json.quote(c.description()))
                    .append(",\n      \"licenses\": [{\"expression\": ").append(Json.quote(c.licence())).append("}]")
                    .append(", \"purl\": ").append(Json.quote(c.purl()));
            if (c.cpe() != null) {
                out.append(", \"cpe\": ").append(Json.quote(c.cpe()));
            }
            out.append("}").append(i + 1 < components.size() ? ",\n" : "\n");
        }
        out.append("  ],\n  \"dependencies\": [{\"ref\": ").append(Json.quote(purl)).append(", \"dependsOn\": [");
        for (int i = 0; i < components.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(Json.quote(components.get(i).ref()));
        }
        return out.append("]}]\n}\n").toString();
    }

    static String notices(String arch, String version, List<Component> components, Path legal) throws IOException {
        StringBuilder out = new StringBuilder();
        out.append("sidecar-wait ").append(version).append(" for linux/").append(arch).append(": third-party notices\n\n")
                .append("The native binary /sidecar-wait is sidecar-wait's own code (Apache-2.0: /LICENSE) built into one\n")
                .append("static program with the components below. /sidecar-wait.cdx.json, its CycloneDX SBOM, lists the same.\n")
                .append("Each component's source is where it says; its licence texts follow the list.\n\n");
        int n = 1;
        for (Component c : components) {
            out.append(n++).append(". ").append(c.group() == null ? "" : c.group() + ":").append(c.name()).append(' ')
                    .append(c.version()).append('\n')
                    .append("   ").append(c.description()).append('\n')
                    .append("   Licence: ").append(c.licence()).append('\n')
                    .append("   Source: ").append(c.source()).append("\n\n");
        }
        Map<String, String> seen = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(legal)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                String first = seen.putIfAbsent(text, legal.relativize(file).toString());
                out.append("\n==== ").append(legal.relativize(file)).append(" ====\n\n")
                        .append(first == null ? text : "(the same text as " + first + " above)\n");
            }
        }
        return out.toString();
    }

    static String licences(Element component) {
        Element licenses = child(component, "licenses");
        if (licenses == null) {
            throw new IllegalStateException(text(component, "name") + " names no licence in the jar's SBOM");
        }
        List<String> ids = new ArrayList<>();
        for (Element licence : children(licenses, "license")) {
            String id = text(licence, "id");
            ids.add(id != null ? id : text(licence, "name"));
        }
        return String.join(" OR ", ids);
    }

    static String required(Properties built, String key) {
        String value = built.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("components.properties has no " + key);
        }
        return value.trim();
    }

    static Document xml(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    static Element child(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent == null ? null : parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }

    static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
