package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sidecarwait.SidecarWaitProcess;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * x509-limbo (C2SP's X.509 path-validation suite, a copy in the test resources: {@link #SUITE}) through the tool as a process, so
 * through the engine of each runtime: the JDK's on the jar, Mbed TLS in each native binary. Every server case is served
 * by `openssl s_server` with its leaf, key and intermediates, in a network and mount namespace of the test's own where
 * the case's peer name is in /etc/hosts (or its IP address on loopback), and the tool is asked for a verified handshake
 * with `check --cacert ROOTS --url tls://NAME:PORT`: ready means the chain and the name were accepted.
 *
 * <p>The engines verify at the current time, and nothing in what ships can set another: a case whose certificates are
 * valid at its own validation time but not now, or the reverse, is left out, named. The cases this client cannot ask
 * for (a client's certificate, revocation lists, a chain depth) are left out by feature, as the suite's own harnesses
 * and Go's do. Where an engine answers otherwise than the suite, the case is in {@link #DIFFERENCES} with its reason
 * (docs/native.md sums them up), and a difference that no longer shows fails the test too, so the list stays true.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class X509LimboTest {

    /** The suite, compressed, with its licence and attribution beside it (src/test/resources/x509-limbo/README.md). */
    private static final String SUITE = "/x509-limbo/limbo.json.gz";

    private static final String TLS_KEY_USAGE = "its key usage does not allow digitalSignature, which a TLS server's key "
            + "needs to sign the handshake: both engines refuse it for TLS, where the suite checks the path alone";
    private static final String PROFILE = "a rule of the certificate profile that real CAs break and a verifier need not "
            + "hold them to: key identifiers left out (OpenSSL 1.1's `x509 -req` writes none), a root's basicConstraints "
            + "not critical or its AKI with issuer and serial (three and five roots of Debian's CA bundle), a server "
            + "certificate that says cA (`openssl req -x509` with a key usage makes one): taken, as Go and OpenSSL take them";
    private static final String COMMON_NAME = "the subject's CN is never a name here (RFC 6125, Go since 1.15): the Web "
            + "PKI's rule that the CN be one of the SANs, byte for byte, is not checked";
    private static final String WEB_PKI_EKU = "the Web PKI's rules on extended key usage (one required, anyExtendedKeyUsage "
            + "or a critical one forbidden, none on a root) go beyond RFC 5280's, which this client applies";
    private static final String PUBLIC_SUFFIX = "a wildcard under a public suffix: there is no public suffix list here, and "
            + "a pod's names are its cluster's";
    private static final String NC_NOT_CRITICAL = "name constraints not marked critical, which RFC 5280 says a CA must mark "
            + "them: taken and checked all the same, as the CA/Browser Forum allows (webpki::nc::permitted-dns-match-noncritical "
            + "expects so) and as some private CAs mark them";
    private static final String NC_LEADING_PERIOD = "a DNS name constraint with a leading period (.example.com), which RFC "
            + "5280 writes for URIs and email only: read as the subdomains alone, as OpenSSL and Go read it, rather than "
            + "refusing the CAs that write it so";
    private static final String ONE_PATH = "two paths, one through a CA whose name constraints its names break or to no "
            + "trusted root: each engine builds one path and tries no other when that one fails (Mbed TLS takes the first "
            + "certificate of the issuer's name whose signature verifies; on the JVM, the JDK's builder, then this "
            + "client's search by name and signature, the trusted CAs first, for the path the rules judge): fails closed";
    private static final String UNDERSCORE = "a DNS name with '_' matches a host with '_' (a docker-compose or Swarm "
            + "name, which --url takes since #56), as Go's crypto/x509 matches it for pilot-agent; RFC 5280's dNSName has "
            + "no '_'. The JDK cannot read such a name at all, so the jar refuses it";

    /** Where both engines answer otherwise than the suite, and why. */
    static final Map<String, String> DIFFERENCES = Map.ofEntries(
            Map.entry("pathlen::validation-ignores-pathlen-in-leaf", TLS_KEY_USAGE),
            Map.entry("rfc5280::aki::cross-signed-root-missing-aki", PROFILE),
            Map.entry("rfc5280::aki::intermediate-missing-aki", PROFILE),
            Map.entry("rfc5280::aki::leaf-missing-aki", PROFILE),
            Map.entry("rfc5280::ca-as-leaf", TLS_KEY_USAGE),
            Map.entry("rfc5280::nc::invalid-dnsname-leading-period", NC_LEADING_PERIOD),
            Map.entry("rfc5280::nc::nc-forbids-alternate-chain-ica", ONE_PATH),
            Map.entry("rfc5280::nc::nc-forbids-same-chain-ica", ONE_PATH),
            Map.entry("rfc5280::nc::permitted-dns-match-noncritical", NC_NOT_CRITICAL),
            Map.entry("rfc5280::root-non-critical-basic-constraints", PROFILE),
            Map.entry("rfc5280::ski::intermediate-missing-ski", PROFILE),
            Map.entry("rfc5280::ski::root-missing-ski", PROFILE),
            Map.entry("webpki::aki::root-with-aki-all-fields", PROFILE),
            Map.entry("webpki::cn::case-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::ipv4-hex-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::ipv4-leading-zeros-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::ipv6-non-rfc5952-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::ipv6-uncompressed-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::ipv6-uppercase-mismatch", COMMON_NAME),
            Map.entry("webpki::cn::not-in-san", COMMON_NAME),
            Map.entry("webpki::cn::punycode-not-in-san", COMMON_NAME),
            Map.entry("webpki::cn::utf8-vs-punycode-mismatch", COMMON_NAME),
            Map.entry("webpki::ee-basicconstraints-ca", PROFILE),
            Map.entry("webpki::eku::ee-anyeku", WEB_PKI_EKU),
            Map.entry("webpki::eku::ee-critical-eku", WEB_PKI_EKU),
            Map.entry("webpki::eku::ee-without-eku", WEB_PKI_EKU),
            Map.entry("webpki::eku::root-has-eku", WEB_PKI_EKU),
            Map.entry("webpki::san::public-suffix-multi-label-wildcard-san", PUBLIC_SUFFIX),
            Map.entry("webpki::san::public-suffix-private-namespace-wildcard-san", PUBLIC_SUFFIX));



    /** Only on the JVM (the JDK's PKIX). */
    static final Map<String, String> JVM_DIFFERENCES = Map.of();

    /** Only in the native binaries (Mbed TLS 3.6). */
    static final Map<String, String> NATIVE_DIFFERENCES = Map.ofEntries(
            Map.entry("rfc5280::san::underscore-dns", UNDERSCORE));

    /** The server side's own limits: a certificate or key `openssl s_server` will not present, so nothing is asked. */
    static final Map<String, String> NOT_SERVED = Map.of();

    private static final String SCRIPT = """
            ip link set lo up || exit 97
            while read -r address; do
              case "$address" in *:*) ip -6 addr add "$address/128" dev lo nodad ;; *) ip addr add "$address/32" dev lo ;; esac || exit 97
            done < "$LIMBO/addresses"
            mount --bind "$LIMBO/hosts" /etc/hosts || exit 98
            # s_server ends at the end of its input: it reads a pipe held open, never written
            mkfifo "$LIMBO/quiet" && exec 3<>"$LIMBO/quiet" || exit 97
            # two lanes, the cases taken in turn: each case has its own port and directory, each result is one short line
            tool=("$@")
            lane() {
              while IFS='|' read -r id host address port dir; do
                openssl s_server -accept "$address:$port" -cipher DEFAULT@SECLEVEL=0 -cert "$dir/peer.pem" -key "$dir/key.pem" \\
                  $( [ -s "$dir/chain.pem" ] && echo -cert_chain "$dir/chain.pem" ) -naccept 1 <&3 >"$dir/server.out" 2>&1 &
                server=$!
                for i in $(seq 200); do grep -q '^ACCEPT' "$dir/server.out" && break; kill -0 $server 2>/dev/null || break; sleep 0.02; done
                if ! grep -q '^ACCEPT' "$dir/server.out"; then
                  echo "$id|server|$(grep -m1 -v '^Using' "$dir/server.out" | tr -d '\\r|')" >> "$LIMBO/results"
                  kill $server 2>/dev/null; wait $server 2>/dev/null; continue
                fi
                "${tool[@]}" check --mesh envoy --admin-url none --request-timeout 20s --cacert "$dir/roots.pem" \\
                  --url "tls://$host:$port" >"$dir/client.out" 2>&1
                code=$?
                echo "$id|$code|$(grep -m1 'tls://' "$dir/client.out" | tr -s ' ' | tr -d '|')" >> "$LIMBO/results"
                kill $server 2>/dev/null; wait $server 2>/dev/null
              done < "$1"
            }
            awk 'NR % 2 == 1' "$LIMBO/cases" > "$LIMBO/cases.odd"
            awk 'NR % 2 == 0' "$LIMBO/cases" > "$LIMBO/cases.even"
            lane "$LIMBO/cases.odd" & lane "$LIMBO/cases.even" & wait
            """;

    private record Verdict(String code, String line) {
    }

    @Test
    void everyServerCaseIsAnsweredAsTheSuiteExpectsOrNamedWithItsReason(@TempDir Path dir) throws Exception {
        JsonNode cases;
        try (InputStream suite = new GZIPInputStream(X509LimboTest.class.getResourceAsStream(SUITE))) {
            cases = new ObjectMapper().readTree(suite).get("testcases");
        }
        Map<String, String> leftOut = new TreeMap<>();
        Map<String, String> expected = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        List<String> hosts = new ArrayList<>(List.of("127.0.0.1 localhost"));
        Instant now = Instant.now();
        int port = 20000;
        for (JsonNode testCase : cases) {
            String id = testCase.get("id").asText();
            String why = leftOutBecause(testCase, now);
            if (why != null) {
                leftOut.put(id, why);
                continue;
            }
            JsonNode name = testCase.get("expected_peer_name");
            String value = name.get("value").asText();
            boolean ip = name.get("kind").asText().equals("IP");
            String address = ip ? value : "127.0.0.1";
            if (ip && !addresses.contains(value) && !value.equals("127.0.0.1") && !value.equals("::1")) {
                addresses.add(value);
            }
            if (!ip) {
                hosts.add("127.0.0.1 " + value);
            }
            Path caseDir = Files.createDirectories(dir.resolve("case-" + expected.size()));
            Files.writeString(caseDir.resolve("roots.pem"), String.join("", texts(testCase.get("trusted_certs"))));
            Files.writeString(caseDir.resolve("chain.pem"), String.join("", texts(testCase.get("untrusted_intermediates"))));
            Files.writeString(caseDir.resolve("peer.pem"), testCase.get("peer_certificate").asText());
            Files.writeString(caseDir.resolve("key.pem"), testCase.get("peer_certificate_key").asText());
            String bracketed = value.contains(":") ? "[" + value + "]" : value;
            lines.add(String.join("|", id, bracketed, address.contains(":") ? "[" + address + "]" : address,
                    Integer.toString(port++), caseDir.toString()));
            expected.put(id, testCase.get("expected_result").asText());
        }
        Files.write(dir.resolve("cases"), lines);
        Files.write(dir.resolve("addresses"), addresses);
        Files.write(dir.resolve("hosts"), hosts);
        Map<String, Verdict> verdicts = run(dir);

        Map<String, String> differences = new TreeMap<>(DIFFERENCES);
        differences.putAll(SidecarWaitProcess.NATIVE ? NATIVE_DIFFERENCES : JVM_DIFFERENCES);
        List<String> wrong = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> testCase : expected.entrySet()) {
            String id = testCase.getKey();
            Verdict verdict = verdicts.get(id);
            if (verdict == null) {
                wrong.add(id + ": no answer recorded");
                continue;
            }
            if (verdict.code().equals("server")) {
                if (!NOT_SERVED.containsKey(id)) {
                    wrong.add(id + ": openssl s_server cannot present it (" + verdict.line() + ")");
                }
                continue;
            }
            if (verdict.line().matches(".*(Exception|java\\.|sun\\.|javax\\.).*")) {
                wrong.add(id + ": a line that names a Java class, not the cause in words: " + verdict.line());
            }
            String answer = verdict.code().equals("0") ? "SUCCESS" : "FAILURE";
            boolean differs = !answer.equals(testCase.getValue());
            if (differs && !differences.containsKey(id)) {
                wrong.add(id + ": expected " + testCase.getValue() + ", answered " + answer + " (exit " + verdict.code() + ": "
                        + verdict.line() + ")");
            } else if (!differs && differences.containsKey(id)) {
                stale.add(id + ": listed as a difference, but answered " + answer + " as the suite expects");
            }
            if (NOT_SERVED.containsKey(id)) {
                stale.add(id + ": listed as not served, but served");
            }
        }
        System.out.println("x509-limbo on " + SidecarWaitProcess.PLATFORM + (SidecarWaitProcess.NATIVE ? " (native)" : " (JVM)")
                + ": " + expected.size() + " cases asked, " + leftOut.size() + " left out, " + differences.size()
                + " listed differences");
        assertEquals(List.of(), wrong, "cases answered otherwise than the suite expects, and not listed");
        assertEquals(List.of(), stale, "listed differences that no longer show");
        assertTrue(expected.size() > 150, "most of the suite is asked: " + expected.size());
    }

    /** Why a case is not asked, or null. */
    private static String leftOutBecause(JsonNode testCase, Instant now) throws Exception {
        if (!testCase.get("validation_kind").asText().equals("SERVER")) {
            return "a client's certificate: this client verifies servers only";
        }
        for (JsonNode feature : testCase.get("features")) {
            switch (feature.asText()) {
                case "has-crl" -> {
                    return "revocation lists: a readiness probe reads none (no CRL or OCSP is fetched)";
                }
                case "max-chain-depth" -> {
                    return "a maximum chain depth: no setting for one here";
                }
                default -> {
                    // asked like any other
                }
            }
        }
        if (!testCase.get("max_chain_depth").isNull()) {
            return "a maximum chain depth: no setting for one here";
        }
        if (testCase.get("expected_peer_name").isNull()) {
            return "no peer name: every TLS target here names its host, and the name is checked";
        }
        if (testCase.get("peer_certificate_key").isNull()) {
            return "no key for the peer certificate: nothing can serve it";
        }
        // The engines verify now. A case asked now must give the same answer as at its own time: every certificate of
        // it valid then and now (a case with no time was made to hold when it was compiled, in 2026). A case whose
        // answer turns on a certificate's dates (expired, not yet valid, a notAfter 5 ms before its time) is left out:
        // TlsProbesProcessTest asks those of real servers.
        JsonNode time = testCase.get("validation_time");
        Instant at = time.isNull() ? now : java.time.OffsetDateTime.parse(time.asText()).toInstant();
        List<String> all = new ArrayList<>(texts(testCase.get("trusted_certs")));
        all.addAll(texts(testCase.get("untrusted_intermediates")));
        all.add(testCase.get("peer_certificate").asText());
        for (String pem : all) {
            X509Certificate certificate = certificate(pem);
            if (certificate == null ? !time.isNull() : !validAt(certificate, at) || !validAt(certificate, now)) {
                return "dates: its answer turns on a certificate's validity at " + at + ", and the engines verify now";
            }
        }
        return null;
    }

    private static boolean validAt(X509Certificate certificate, Instant at) {
        return !at.isBefore(certificate.getNotBefore().toInstant()) && !at.isAfter(certificate.getNotAfter().toInstant());
    }

    /** A certificate as the JDK reads it, or null where it cannot (then its dates cannot be compared either). */
    private static X509Certificate certificate(String pem) {
        try (InputStream in = new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (Exception unreadable) {
            return null;
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        for (JsonNode text : array) {
            texts.add(text.asText());
        }
        return texts;
    }

    /** Every case served and asked, in one network and mount namespace of the test's own. */
    private static Map<String, Verdict> run(Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of("unshare", "--net", "--mount", "bash", "-c", SCRIPT, "limbo"));
        command.addAll(SidecarWaitProcess.builder().command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.startsWith("SSL_CERT_"));
        builder.environment().put("LIMBO", dir.toString());
        Process process = builder.redirectErrorStream(true).redirectOutput(dir.resolve("run.log").toFile()).start();
        if (!process.waitFor(15, TimeUnit.MINUTES)) {
            SidecarWaitProcess.endTree(process);
            throw new AssertionError("x509-limbo did not finish within 15 minutes");
        }
        assertEquals(0, process.exitValue(), "the namespace's set-up: " + Files.readString(dir.resolve("run.log")));
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("results"))) {
            String[] fields = line.split("\\|", 3);
            verdicts.put(fields[0], new Verdict(fields[1], fields.length > 2 ? fields[2] : ""));
        }
        return verdicts;
    }
}
