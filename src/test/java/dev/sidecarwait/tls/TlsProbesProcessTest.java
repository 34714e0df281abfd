package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.servers.TestCa;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS through the tool as a process (the JVM's SSLEngine, or Mbed TLS in each native binary), against real servers
 * from Debian and grpc-java, with a CA openssl makes for the run: each case a user meets (ready; an untrusted issuer,
 * an expired or not yet valid certificate, a name not in it, an IP address target, a client certificate asked for
 * and missing, a plain server on a TLS URL) and the line that explains it.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsProbesProcessTest {

    private final List<AutoCloseable> running = new ArrayList<>();
    private Path dir;
    private TestCa ca;
    private TestCa other;
    private TestCa.Issued client;
    private RealServer tls12;
    private RealServer tls13;
    private RealServer expired;
    private RealServer notYetValid;
    private RealServer wrongName;
    private RealServer untrusted;
    private RealServer clientRequired;

    @BeforeAll
    void serversWithTheirCertificates(@TempDir Path classDir) throws Exception {
        dir = classDir; // removed after the class, whatever its outcome
        ca = TestCa.create(dir, "Test CA");
        other = TestCa.create(dir, "Other CA");
        client = ca.client("probe");
        TestCa.Issued good = ca.server("localhost", "DNS:localhost", "IP:127.0.0.1");
        tls12 = started(RealServer.nginxTls(good, "TLSv1.2", null));
        tls13 = started(RealServer.nginxTls(good, "TLSv1.3", null));
        expired = started(RealServer.nginxTls(ca.serverBetween("localhost", "20200101000000Z", "20200102000000Z", "DNS:localhost"),
                "TLSv1.2 TLSv1.3", null));
        notYetValid = started(RealServer.nginxTls(ca.serverBetween("localhost", "20990101000000Z", "20990102000000Z", "DNS:localhost"),
                "TLSv1.2 TLSv1.3", null));
        wrongName = started(RealServer.nginxTls(ca.server("orders", "DNS:orders.prod.svc.cluster.local", "DNS:*.orders.prod"),
                "TLSv1.2 TLSv1.3", null));
        untrusted = started(RealServer.nginxTls(other.server("localhost", "DNS:localhost"), "TLSv1.2 TLSv1.3", null));
        clientRequired = started(RealServer.redisTls(good, ca.cert));
    }

    private RealServer started(RealServer server) throws Exception {
        running.add(server);
        return server.start();
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable server : running) {
            server.close();
        }
    }

    private SidecarWaitProcess.Result check(Map<String, String> env, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("check", "--verbose", "--mesh", "envoy", "--admin-url", "none"));
        if (!List.of(args).contains("--request-timeout")) {
            all.addAll(List.of("--request-timeout", "5s")); // the JVM's first handshake, or an emulated one, under load
        }
        all.addAll(List.of(args));
        return SidecarWaitProcess.run(env, null, all.toArray(String[]::new));
    }

    private SidecarWaitProcess.Result check(String... args) throws Exception {
        return check(Map.of(), args);
    }

    @Test
    void httpsIsReadyOverTls12AndTls13AndTlsSaysWhichVersionWasVerified() throws Exception {
        SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--cacert", ca.cert.toString(),
                "--url", "https://localhost:" + tls12.port + "/healthz", "--url", "https://localhost:" + tls13.port + "/",
                "--timeout", "20s");
        assertEquals(0, wait.exit(), wait.err());
        SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "tls://localhost:" + tls12.port,
                "--url", "tls://localhost:" + tls13.port, "--url", "https://127.0.0.1:" + tls13.port + "/");
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("TLSv1.2, certificate for localhost verified"), check.out());
        assertTrue(check.out().contains("TLSv1.3, certificate for localhost verified"), check.out());
        assertTrue(check.out().contains("HTTP 200"), check.out());
    }

    /**
     * A wait's attempts at an https:// target share one verified connection, as pilot-agent's do: nginx answers 200
     * only to the third request on a connection, so the wait is ready only if its three attempts used one.
     */
    @Test
    void aWaitsHttpsAttemptsShareOneConnectionOverTls12AndTls13() throws Exception {
        String third = "location /third { if ($connection_requests = 3) { return 200 \"ready\\n\"; } return 503 \"not yet\\n\"; }";
        TestCa.Issued good = ca.server("localhost", "DNS:localhost");
        try (RealServer over12 = RealServer.nginxTls(good, "TLSv1.2", null, third).start();
             RealServer over13 = RealServer.nginxTls(good, "TLSv1.3", null, third).start()) {
            String url12 = "https://localhost:" + over12.port + "/third";
            String url13 = "https://localhost:" + over13.port + "/third";
            SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--cacert", ca.cert.toString(),
                    "--url", url12, "--url", url13, "--periodMillis", "100", "--timeout", "20s");
            assertEquals(0, wait.exit(), wait.err());
            assertTrue(wait.err().contains(url12 + " 3") && wait.err().contains(url13 + " 3"), wait.err());
        }
    }

    @Test
    void theSystemsTrustIsReadFromSslCertFileAndSslCertDir() throws Exception {
        Path bundleDir = Files.createDirectories(dir.resolve("certs"));
        Files.copy(ca.cert, bundleDir.resolve("test-ca.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        SidecarWaitProcess.Result file = check(Map.of("SSL_CERT_FILE", ca.cert.toString()), "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(0, file.exit(), file.out() + file.err());
        SidecarWaitProcess.Result directory = check(Map.of("SSL_CERT_FILE", "", "SSL_CERT_DIR", bundleDir.toString()),
                "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(0, directory.exit(), directory.out() + directory.err());
        Path empty = Files.createDirectories(dir.resolve("empty"));
        SidecarWaitProcess.Result none = check(Map.of("SSL_CERT_FILE", dir.resolve("none.pem").toString(), "SSL_CERT_DIR",
                empty.toString()), "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(2, none.exit(), none.out());
        assertTrue(none.err().contains("invalid value for SSL_CERT_FILE: none: no CA bundle in this image "
                + "(SSL_CERT_FILE " + dir.resolve("none.pem") + ", SSL_CERT_DIR " + empty + "); give --cacert FILE"), none.err());
        Path junk = Files.writeString(dir.resolve("junk-bundle.pem"), junkPem());
        SidecarWaitProcess.Result unusable = check(Map.of("SSL_CERT_FILE", junk.toString(), "SSL_CERT_DIR", empty.toString()),
                "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(2, unusable.exit(), unusable.out());
        assertTrue(unusable.err().contains("invalid value for SSL_CERT_FILE: none of SSL_CERT_FILE " + junk + " (1 certificate) can be "
                + "used as a CA; give --cacert FILE"), unusable.err());
    }

    /** A PEM CERTIFICATE block of random base64: a block, but no certificate. */
    private static String junkPem() {
        byte[] random = new byte[300];
        new java.util.Random(1).nextBytes(random);
        return "-----BEGIN CERTIFICATE-----\n" + java.util.Base64.getMimeEncoder().encodeToString(random)
                + "\n-----END CERTIFICATE-----\n";
    }

    @Test
    void aCaFileThatHoldsNoUsableCertificateIsAUsageErrorBeforeAnythingIsProbed() throws Exception {
        Path termination = Files.writeString(dir.resolve("termination-junk"), "");
        Path junk = Files.writeString(dir.resolve("junk.pem"), junkPem());
        Path empty = Files.writeString(dir.resolve("empty.pem"), "");
        for (Path file : List.of(junk, empty)) {
            SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--termination-log", termination.toString(),
                    "--cacert", file.toString(), "--url", "https://localhost:" + untrusted.port + "/");
            assertEquals(2, wait.exit(), wait.err());
            assertTrue(wait.err().contains("invalid value for --cacert: '" + file + "': "), wait.err());
            assertTrue(Files.readString(termination).contains("--cacert: '" + file + "'"), Files.readString(termination));
            SidecarWaitProcess.Result check = check("--cacert", file.toString(), "--url", "https://localhost:" + untrusted.port + "/");
            assertEquals(2, check.exit(), check.out() + check.err());
        }
        SidecarWaitProcess.Result insecure = check("--insecure", "--cacert", junk.toString(), "--url", "https://localhost:" + untrusted.port + "/");
        assertEquals(0, insecure.exit(), "nothing to verify with, and nothing verified: " + insecure.out() + insecure.err());
    }

    @Test
    void anHttpsTargetRedirectedToPlainHttpIsNotFollowed() throws Exception {
        try (RealServer plain = RealServer.nginx().start();
             RealServer downgrading = RealServer.nginxTls(ca.server("localhost", "DNS:localhost"), "TLSv1.2 TLSv1.3", null,
                     "location /health { return 301 http://localhost:" + plain.port + "/health; }").start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + downgrading.port + "/health");
            assertEquals(1, check.exit(), check.out());
            assertTrue(check.out().contains("redirected from https:// to plain http:// (http://localhost:" + plain.port
                    + "/health), not followed: a TLS target stays TLS"), check.out());
        }
    }

    @Test
    void anUntrustedIssuerIsNamedWithTheTrustThatWasUsed() throws Exception {
        SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + untrusted.port + "/");
        assertEquals(1, check.exit());
        assertTrue(check.out().contains("untrusted certificate 'localhost': its issuer 'Other CA' is not among the trusted CAs: --cacert "
                + ca.cert + " (1 certificate)"), check.out());
    }

    @Test
    void anExpiredOrNotYetValidCertificateSaysWhen() throws Exception {
        SidecarWaitProcess.Result late = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + expired.port + "/");
        assertEquals(1, late.exit());
        assertTrue(late.out().contains("expired certificate 'localhost': valid until 2020-01-02T00:00:00Z, now 20"), late.out());
        SidecarWaitProcess.Result early = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + notYetValid.port + "/");
        assertEquals(1, early.exit());
        assertTrue(early.out().contains("certificate not yet valid 'localhost': valid from 2099-01-01T00:00:00Z, now 20"), early.out());
    }

    @Test
    void aCertificateSignedOverSha1IsRefusedSayingSo() throws Exception {
        // nginx's OpenSSL will not even present it at its default security level
        try (RealServer sha1 = RealServer.nginxTls(ca.serverSignedOver("sha1", "localhost", "DNS:localhost"), "TLSv1.2 TLSv1.3",
                null, "ssl_ciphers DEFAULT:@SECLEVEL=0;").start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + sha1.port + "/");
            assertEquals(1, check.exit(), check.out());
            // the JVM reads the certificate and refuses its signature; Mbed TLS, built without SHA-1, cannot read it
            assertTrue(check.out().contains("signed with a hash this client does not accept (SHA-1 or weaker: SHA-256 or "
                    + "better is needed)"), check.out());
        }
    }

    @Test
    void aNameNotInTheCertificateListsTheNamesItHas() throws Exception {
        SidecarWaitProcess.Result byName = check("--cacert", ca.cert.toString(), "--url", "https://localhost:" + wrongName.port + "/");
        assertEquals(1, byName.exit());
        assertTrue(byName.out().contains("certificate 'orders' is not for localhost (its names: DNS:orders.prod.svc.cluster.local, "
                + "DNS:*.orders.prod)"), byName.out());
        SidecarWaitProcess.Result byAddress = check("--cacert", ca.cert.toString(), "--url", "tls://127.0.0.1:" + wrongName.port);
        assertTrue(byAddress.out().contains("is not for 127.0.0.1"), byAddress.out());
    }

    @Test
    void insecureSkipsVerificationAndSaysSo() throws Exception {
        SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--insecure", "--url",
                "https://localhost:" + untrusted.port + "/", "--url", "https://localhost:" + expired.port + "/", "--timeout", "20s");
        assertEquals(0, wait.exit(), wait.err());
        assertEquals(1, wait.err().split("are not verified \\(--insecure\\)", -1).length - 1, wait.err());
        SidecarWaitProcess.Result check = check(Map.of("SIDECAR_WAIT_INSECURE", "true"), "--url", "tls://localhost:" + wrongName.port);
        assertEquals(0, check.exit(), check.out());
        assertTrue(check.out().contains("not verified: --insecure"), check.out());
    }

    @Test
    void aServerThatWantsAClientCertificateSaysSoAndOneIsOffered() throws Exception {
        String url = "rediss://localhost:" + clientRequired.port;
        SidecarWaitProcess.Result without = check("--cacert", ca.cert.toString(), "--url", url);
        assertEquals(1, without.exit());
        assertTrue(without.out().contains("certificate_required (116): it wants a client certificate (--cert and --key)"),
                without.out());
        SidecarWaitProcess.Result handshakeOnly = check("--cacert", ca.cert.toString(), "--url", "tls://localhost:" + clientRequired.port);
        assertTrue(handshakeOnly.out().contains("certificate_required (116)"), handshakeOnly.out());
        SidecarWaitProcess.Result with = check(Map.of("SIDECAR_WAIT_CERT", client.cert().toString(), "SIDECAR_WAIT_KEY",
                client.key().toString()), "--cacert", ca.cert.toString(), "--url", url, "--url", "tls://localhost:" + clientRequired.port);
        assertEquals(0, with.exit(), with.out() + with.err());
        assertTrue(with.out().contains("PONG"), with.out());
    }

    /**
     * The client's certificate, and its signature, go only to a server whose certificate has been verified: openssl
     * s_server asks for one and prints what it got; behind a certificate this client does not trust, it gets nothing.
     */
    @Test
    void aClientCertificateGoesOnlyToAVerifiedServer() throws Exception {
        TestCa.Issued trusted = ca.server("localhost", "DNS:localhost");
        TestCa.Issued notTrusted = other.server("localhost", "DNS:localhost");
        for (String version : List.of("-tls1_2", "-tls1_3")) {
            String untrustedSaw = clientCertificateSeenBy(notTrusted, version, 1);
            assertTrue(!untrustedSaw.contains("CN=probe") && !untrustedSaw.contains("CN = probe"),
                    version + ": the client's certificate reached a server it does not trust: " + untrustedSaw);
            String trustedSaw = clientCertificateSeenBy(trusted, version, 0);
            assertTrue(trustedSaw.contains("CN=probe") || trustedSaw.contains("CN = probe"),
                    version + ": a verified server is offered the certificate (the observation works): " + trustedSaw);
        }
    }

    /** What `openssl s_server`, asking for a client certificate, printed of one handshake with the tool. */
    private String clientCertificateSeenBy(TestCa.Issued server, String version, int exit) throws Exception {
        int port = RealServer.freePort();
        Path out = Files.createTempFile(dir, "s_server", ".txt");
        Process sServer = new ProcessBuilder("openssl", "s_server", "-accept", "127.0.0.1:" + port, "-cert",
                server.cert().toString(), "-key", server.key().toString(), "-verify", "1", "-CAfile", ca.cert.toString(),
                version, "-naccept", "1").redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            SidecarWaitProcess.awaitText(out, "ACCEPT");
            SidecarWaitProcess.Result check = check(Map.of(), "--cacert", ca.cert.toString(), "--cert", client.cert().toString(),
                    "--key", client.key().toString(), "--url", "tls://localhost:" + port);
            assertEquals(exit, check.exit(), check.out() + check.err());
            sServer.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            return Files.readString(out);
        } finally {
            SidecarWaitProcess.endTree(sServer);
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesOrNoKeyAtAllIsAUsageErrorNamingTheFile() throws Exception {
        TestCa.Issued another = ca.client("another");
        Path termination = dir.resolve("termination-log");
        SidecarWaitProcess.Result mismatch = SidecarWaitProcess.run(Map.of(), null, "wait", "--termination-log",
                termination.toString(), "--cert", client.cert().toString(), "--key", another.key().toString(), "--url",
                "https://localhost:" + tls13.port + "/");
        assertEquals(2, mismatch.exit(), mismatch.err());
        String line = "invalid value for --key: '" + another.key() + "': it is not the key of --cert " + client.cert()
                + " (the first certificate there)";
        assertTrue(mismatch.err().contains(line), mismatch.err());
        assertEquals(1, mismatch.err().strip().split("\n").length, mismatch.err());
        assertTrue(Files.readString(termination).contains(line), Files.readString(termination));
        SidecarWaitProcess.Result notAKey = SidecarWaitProcess.run(Map.of(), null, "check", "--cert", client.cert().toString(),
                "--key", ca.cert.toString(), "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(2, notAKey.exit(), notAKey.err());
        assertTrue(notAKey.err().contains("invalid value for --key: '" + ca.cert + "': it holds no PEM private key"), notAKey.err());
        Path encrypted = ca.encryptedKey(another);
        SidecarWaitProcess.Result locked = SidecarWaitProcess.run(Map.of(), null, "check", "--cert", client.cert().toString(),
                "--key", encrypted.toString(), "--url", "https://localhost:" + tls13.port + "/");
        assertEquals(2, locked.exit(), locked.err());
        assertTrue(locked.err().contains("the key is encrypted; give it unencrypted"), locked.err());
        String key = Files.readString(another.key());
        String keyBody = key.substring(key.indexOf('\n') + 1, key.indexOf('\n') + 33);
        for (SidecarWaitProcess.Result run : List.of(mismatch, notAKey, locked)) {
            assertTrue(!run.err().contains("BEGIN") && !run.err().contains(keyBody), "no key material in a message: " + run.err());
        }
    }

    @Test
    void aSidecarIsToldToQuitOverHttpsVerifiedAsAnyTarget() throws Exception {
        SidecarWaitProcess.Result quit = SidecarWaitProcess.run(Map.of("SIDECAR_WAIT_CACERT", ca.cert.toString()), null, "quit",
                "--url", "https://localhost:" + tls13.port + "/quitquitquit");
        assertEquals(0, quit.exit(), quit.err());
        SidecarWaitProcess.Result refused = SidecarWaitProcess.run(Map.of(), null, "quit", "--cacert", ca.cert.toString(),
                "--url", "https://localhost:" + untrusted.port + "/quitquitquit");
        assertEquals(1, refused.exit(), refused.err());
        assertTrue(refused.err().contains("untrusted certificate 'localhost': its issuer 'Other CA'"), refused.err());
    }

    @Test
    void aPlainServerOnATlsUrlIsTold() throws Exception {
        try (RealServer redis = RealServer.redis().start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--request-timeout", "1s", "--url",
                    "rediss://127.0.0.1:" + redis.port);
            assertEquals(1, check.exit());
            assertTrue(check.out().contains("request timed out after 1000 ms, with no answer to the TLS handshake (a plain-text "
                    + "server waiting for its client?)"), check.out());
        }
        try (RealServer plainHttp = RealServer.nginx().start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "https://127.0.0.1:" + plainHttp.port + "/");
            assertEquals(1, check.exit());
            assertTrue(check.out().contains("not TLS: the server answered in plain text ('HTTP/1.1 400 Bad Request'); use the "
                    + "plain scheme"), check.out());
        }
    }

    @Test
    void aTlsServerOnAPlainUrlIsTold() throws Exception {
        SidecarWaitProcess.Result reverse = check("--url", "redis://127.0.0.1:" + clientRequired.port);
        assertEquals(1, reverse.exit());
        assertTrue(reverse.out().matches("(?s).*connection (closed|reset) before the server spoke \\(a proxy with no upstream\\?\\); "
                + "it speaks TLS: use rediss://.*"), reverse.out());
        try (dev.sidecarwait.servers.HostilePeer alerting = new dev.sidecarwait.servers.HostilePeer(
                dev.sidecarwait.servers.HostilePeer.Mode.ALERT, 0)) {
            // a TLS server that answers a plain request with an alert: the bytes where a status line was expected
            SidecarWaitProcess.Result http = check("--url", "http://127.0.0.1:" + alerting.port + "/");
            assertEquals(1, http.exit());
            assertTrue(http.out().contains("it speaks TLS: use https://"), http.out());
        }
        SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--verbose", "--url",
                "redis://127.0.0.1:" + clientRequired.port, "--timeout", "1s", "--period", "200ms");
        assertEquals(1, wait.exit(), wait.err());
        for (String line : wait.err().split("\n")) {
            assertEquals(line.contains("timeout waiting for") || line.contains("NOT READY before the timeout"),
                    line.contains("it speaks TLS: use rediss://"), "asked for the last lines, not at each attempt: " + line);
        }
    }

    @Test
    void postgresSslmodesAsLibpqSpellsThem() throws Exception {
        try (RealServer secure = RealServer.postgres(ca.server("localhost", "DNS:localhost", "IP:127.0.0.1")).start();
             RealServer plain = RealServer.postgres().start()) {
            String base = "postgres://localhost:" + secure.port + "/appdb?sslmode=";
            List<String> args = new ArrayList<>(List.of("--cacert", ca.cert.toString()));
            for (String mode : List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full")) {
                args.addAll(List.of("--url", base + mode));
            }
            SidecarWaitProcess.Result check = check(args.toArray(String[]::new));
            assertEquals(0, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("certificate for localhost verified"), check.out());
            assertTrue(check.out().contains("not verified: require"), check.out());
            SidecarWaitProcess.Result noTls = check("--url", "postgres://127.0.0.1:" + plain.port + "/db?sslmode=require",
                    "--url", "postgres://127.0.0.1:" + plain.port + "/db?sslmode=prefer");
            assertEquals(1, noTls.exit());
            assertTrue(noTls.out().contains("PostgreSQL does not offer TLS, which sslmode=require requires"), noTls.out());
            assertTrue(noTls.out().contains("no TLS: the server does not offer it (sslmode=prefer)"), noTls.out());
        }
    }

    @Test
    void grpcsOffersH2AndAsksTheHealthServiceOverTls() throws Exception {
        TestCa.Issued cert = ca.server("localhost", "DNS:localhost");
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("", ServingStatus.SERVING);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .sslContext(GrpcSslContexts.forServer(cert.cert().toFile(), cert.key().toFile()).build())
                .addService(health.getHealthService()).build().start();
        try {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "grpcs://localhost:" + server.getPort());
            assertEquals(0, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("SERVING"), check.out());
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void natsThatRequiresTlsGetsIt() throws Exception {
        try (RealServer nats = RealServer.natsTls(ca.server("localhost", "DNS:localhost")).start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "nats://localhost:" + nats.port);
            assertEquals(0, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("over TLS, PONG"), check.out());
            SidecarWaitProcess.Result required = check("--cacert", ca.cert.toString(), "--url", "nats://localhost:" + nats.port
                    + "?tls=required");
            assertEquals(0, required.exit(), required.out() + required.err());
        }
        try (RealServer plain = RealServer.nats().start()) {
            // a plain INFO, as anything between could make it by removing tls_required: refused when TLS is required
            SidecarWaitProcess.Result stripped = check("--cacert", ca.cert.toString(), "--url", "nats://localhost:" + plain.port
                    + "?tls=required");
            assertEquals(1, stripped.exit(), stripped.out());
            assertTrue(stripped.out().contains("does not say tls_required in its INFO, and tls=required asks for TLS"), stripped.out());
        }
    }

    @Test
    void amqpsIsTheAmqpHeaderThroughTls() throws Exception {
        try (RealServer rabbit = RealServer.rabbitmq(ca.server("localhost", "DNS:localhost")).start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url", "amqps://localhost:" + rabbit.port);
            assertEquals(0, check.exit(), check.out() + check.err() + rabbit.log());
            assertTrue(check.out().contains("certificate for localhost verified"), check.out());
        }
    }

    @Test
    void mysqlSslModeAsTheMysqlClientSpellsIt() throws Exception {
        try (RealServer mariadb = RealServer.mariadb(false, ca.server("localhost", "DNS:localhost", "IP:127.0.0.1")).start()) {
            SidecarWaitProcess.Result check = check("--cacert", ca.cert.toString(), "--url",
                    "mysql://localhost:" + mariadb.port + "/app?ssl-mode=VERIFY_IDENTITY", "--url",
                    "mysql://127.0.0.1:" + mariadb.port + "/app?sslMode=REQUIRED");
            assertEquals(0, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("certificate for localhost verified"), check.out());
        }
    }
}
