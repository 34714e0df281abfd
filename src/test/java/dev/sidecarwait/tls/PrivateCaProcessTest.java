package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.servers.TestCa;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private CA as companies run them, through the tool as a process (the JDK's PKIX on the jar, Mbed TLS in each
 * binary), against `openssl s_server`: a root or an intermediate with name constraints, the one key policy, and each
 * refusal in the same words on every runtime, naming the certificate at fault and the cause.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class PrivateCaProcessTest {

    private static final String POLICY = "(this client takes RSA keys of 2048 bits or more, in whole bytes)";

    @Test
    void aRootWithNameConstraintsVerifiesTheNamesItPermitsAndRefusesOthers(@TempDir Path dir) throws Exception {
        TestCa root = TestCa.create(dir, "Cluster CA", List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-addext", "nameConstraints = critical, permitted;DNS:svc.cluster.local, permitted;IP:127.0.0.0/255.0.0.0"));
        SidecarWaitProcess.Result inside = served(root.server("db", "DNS:db.ns.svc.cluster.local", "IP:127.0.0.1"), root, 0);
        assertTrue(inside.out().contains("certificate for 127.0.0.1 verified"), inside.out());
        SidecarWaitProcess.Result outside = served(root.server("db", "DNS:db.example.com", "IP:127.0.0.1"), root, 1);
        assertTrue(outside.out().contains("certificate rejected 'db': the name DNS:db.example.com of this certificate is "
                + "outside the names CA 'Cluster CA' permits (name constraints)"), outside.out());
    }

    @Test
    void anIntermediatesNameConstraintsAreCheckedCriticalOrNot(@TempDir Path dir) throws Exception {
        TestCa root = TestCa.create(dir, "Root CA");
        for (String critical : List.of("", "critical, ")) {
            TestCa permits = root.intermediate("Permits " + critical.length(), "nameConstraints = " + critical + "permitted;IP:127.0.0.1/255.255.255.255");
            served(TestCa.chain(permits.server("api", "IP:127.0.0.1"), permits), root, 0);
            TestCa excludes = root.intermediate("Excludes " + critical.length(), "nameConstraints = " + critical + "excluded;DNS:internal");
            SidecarWaitProcess.Result refused = served(TestCa.chain(excludes.server("api", "DNS:api.internal", "IP:127.0.0.1"),
                    excludes), root, 1);
            assertTrue(refused.out().contains("certificate rejected 'api': the name DNS:api.internal of this certificate is "
                    + "among the names CA 'Excludes " + critical.length() + "' excludes (name constraints)"), refused.out());
        }
    }

    @Test
    void oneKeyPolicyOnBothEnginesSaysWhichCertificateAndWhy(@TempDir Path dir) throws Exception {
        TestCa root = TestCa.create(dir, "Root CA");
        for (int bits : List.of(1024, 2052)) {
            SidecarWaitProcess.Result weak = served(root.serverWithRsaBits(bits, "rsa" + bits, "IP:127.0.0.1"), root, 1);
            assertTrue(weak.out().contains("certificate rejected 'rsa" + bits + "': this certificate has an RSA key of " + bits
                    + " bits " + POLICY), weak.out());
        }
        TestCa odd = TestCa.create(dir, "Odd CA", List.of("-newkey", "rsa:2052"));
        SidecarWaitProcess.Result only = check(odd, "tls://127.0.0.1:1");
        assertEquals(2, only.exit(), only.out() + only.err());
        assertTrue(only.err().contains("invalid value for --cacert: '" + odd.cert + "': no certificate in it can be used as a "
                + "CA ('Odd CA' has an RSA key of 2052 bits " + POLICY + ")"), only.err());
    }

    @Test
    void aRefusalNamesTheCertificateAtFaultAndTheCause(@TempDir Path dir) throws Exception {
        TestCa root = TestCa.create(dir, "Root CA");
        TestCa issuing = root.intermediate("Issuing CA", "");
        SidecarWaitProcess.Result sha1 = served(TestCa.chain(issuing.serverSignedOver("sha1", "legacy", "IP:127.0.0.1"), issuing),
                root, 1);
        assertTrue(sha1.out().contains("certificate rejected 'legacy': this certificate is " + TlsFailures.WEAK_HASH), sha1.out());

        TestCa last = root.intermediate("Last CA", "basicConstraints = critical, CA:TRUE, pathlen:0");
        TestCa tooDeep = last.intermediate("Too Deep CA", "");
        SidecarWaitProcess.Result deep = served(TestCa.chain(tooDeep.server("deep", "IP:127.0.0.1"), tooDeep, last), root, 1);
        assertTrue(deep.out().contains("certificate rejected 'deep': the chain is longer than a CA above 'Too Deep CA' "
                + "allows (its path length constraint)"), deep.out());

        SidecarWaitProcess.Result unknown = served(root.serverWith("1.3.6.1.4.1.55738.666.1 = critical, ASN1:NULL", "odd",
                "IP:127.0.0.1"), root, 1);
        assertTrue(unknown.out().contains("certificate rejected 'odd': this certificate has an extension marked critical that "
                + "this client does not know (1.3.6.1.4.1.55738.666.1)"), unknown.out());
        assertTrue(!unknown.out().contains("X509 -") && !unknown.out().contains("ASN1 -"), unknown.out());
    }

    /** {@code check} against `openssl s_server` presenting {@code served}, trusting {@code root}: its exit must be this. */
    private static SidecarWaitProcess.Result served(TestCa.Issued served, TestCa root, int exit) throws Exception {
        int port = RealServer.freePort();
        // s_server presents the first certificate of -cert, and its CAs from -cert_chain
        String pem = java.nio.file.Files.readString(served.cert());
        int second = pem.indexOf("-----BEGIN CERTIFICATE-----", 1);
        Path leaf = Path.of(served.cert() + ".leaf");
        Path chain = Path.of(served.cert() + ".cas");
        java.nio.file.Files.writeString(leaf, second < 0 ? pem : pem.substring(0, second));
        java.nio.file.Files.writeString(chain, second < 0 ? "" : pem.substring(second));
        List<String> command = new java.util.ArrayList<>(List.of("openssl", "s_server", "-accept", "127.0.0.1:" + port,
                // SECLEVEL=0: OpenSSL 3 would not present a 1024-bit key at its default level; the client is what refuses it
                "-cipher", "DEFAULT@SECLEVEL=0", "-cert", leaf.toString(), "-key", served.key().toString(), "-quiet"));
        if (second > 0) {
            command.addAll(List.of("-cert_chain", chain.toString()));
        }
        Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            awaitListening(port);
            SidecarWaitProcess.Result check = check(root, "tls://127.0.0.1:" + port);
            assertEquals(exit, check.exit(), check.out() + check.err());
            return check;
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static SidecarWaitProcess.Result check(TestCa root, String url) throws Exception {
        return SidecarWaitProcess.run(Map.of(), null, "check", "--mesh", "envoy", "--admin-url", "none", "--request-timeout",
                "10s", "--cacert", root.cert.toString(), "--url", url);
    }

    private static void awaitListening(int port) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            try (java.net.Socket probe = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(10);
            }
        }
        throw new AssertionError("openssl s_server did not listen on " + port);
    }
}
