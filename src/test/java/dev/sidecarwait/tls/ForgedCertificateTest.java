package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.servers.TestCa;
import java.nio.charset.StandardCharsets;
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
 * A name is what the certificate says, not what its bytes can be made to say: certificates from a CA the wait trusts,
 * whose CN or DNS names hold a newline, a NUL or a terminal's escape sequence, served by nginx to the tool as a
 * process. None passes for localhost (curl refuses each), none crashes the wait, and what they hold is shown escaped
 * in the log and the termination message, never written as a line of its own.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedCertificateTest {

    /** A shared issuer that limits the names it signs but not the CN signs this; the text forges swtls's old lines. */
    private static final String FORGED_CN = "x\nx\n20250101000000\n20300101000000\nDNS:localhost";
    private static final String ESCAPES_CN = "\u001b[31mEVIL\u001b[0m\r\n2026-01-01T00:00:00Z\tinfo\tready";

    private final List<RealServer> running = new ArrayList<>();
    private Path dir;
    private TestCa ca;
    private RealServer forgedCn;
    private RealServer sanWithNewline;
    private RealServer sanWithNul;
    private RealServer escapes;
    private RealServer manyNames;

    @BeforeAll
    void servers(@TempDir Path classDir) throws Exception {
        dir = classDir; // removed after the class, whatever its outcome
        ca = TestCa.create(dir, "Test CA");
        forgedCn = started(ca.serverWithRawNames(FORGED_CN, List.of(ascii("tenant-a.example"))), "TLSv1.2");
        sanWithNewline = started(ca.serverWithRawNames("forged", List.of(ascii("attacker.example\nDNS:localhost"))), "TLSv1.3");
        sanWithNul = started(ca.serverWithRawNames("forged", List.of(ascii("localhost\0.attacker.example"))), "TLSv1.2 TLSv1.3");
        escapes = started(ca.serverWithRawNames(ESCAPES_CN, List.of(ascii("evil.example"))), "TLSv1.2 TLSv1.3");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 450; i++) {
            names.add("DNS:name-" + i + ".tenant.example");
        }
        names.add("DNS:localhost"); // the last of 451: a list that does not fit a small buffer is read whole
        manyNames = started(ca.server("many", names.toArray(String[]::new)), "TLSv1.2 TLSv1.3");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private RealServer started(TestCa.Issued certificate, String protocols) throws Exception {
        RealServer server = RealServer.nginxTls(certificate, protocols, null).start();
        running.add(server);
        return server;
    }

    @AfterAll
    void stop() throws Exception {
        for (RealServer server : running) {
            server.close();
        }
    }

    private SidecarWaitProcess.Result check(String... urls) throws Exception {
        List<String> args = new ArrayList<>(List.of("check", "--mesh", "envoy", "--admin-url", "none", "--request-timeout", "5s",
                "--cacert", ca.cert.toString()));
        for (String url : urls) {
            args.addAll(List.of("--url", url));
        }
        return SidecarWaitProcess.run(Map.of(), null, args.toArray(String[]::new));
    }

    @Test
    void aNameWithANewlineOrANulMatchesNothing() throws Exception {
        for (RealServer server : List.of(forgedCn, sanWithNewline, sanWithNul)) {
            SidecarWaitProcess.Result check = check("https://localhost:" + server.port + "/");
            assertEquals(1, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("is not for localhost (its names: DNS:"), check.out());
            assertFalse(check.out().contains("internal error"), check.out());
        }
        SidecarWaitProcess.Result newline = check("https://localhost:" + sanWithNewline.port + "/");
        assertTrue(newline.out().contains("DNS:attacker.example\\nDNS:localhost)"), "shown escaped, whole: " + newline.out());
        SidecarWaitProcess.Result nul = check("https://localhost:" + sanWithNul.port + "/");
        assertTrue(nul.out().contains("DNS:localhost\\x00.attacker.example)"), "shown escaped, whole: " + nul.out());
    }

    @Test
    void everyNameOfALongListIsRead() throws Exception {
        SidecarWaitProcess.Result check = check("https://localhost:" + manyNames.port + "/");
        assertEquals(0, check.exit(), check.out() + check.err());
    }

    @Test
    void aCertificateThatForgesLinesNeitherCrashesAnUnverifiedWaitNorStopsTheApp() throws Exception {
        SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--insecure", "--timeout", "20s",
                "--url", "https://localhost:" + forgedCn.port + "/", "--url", "https://localhost:" + escapes.port + "/",
                "--", "sh", "-c", "echo the app started");
        assertEquals(0, wait.exit(), wait.err());
        assertTrue(wait.out().contains("the app started"), wait.out());
    }

    @Test
    void whatACertificateHoldsIsShownEscapedInTheLogAndTheTerminationMessage() throws Exception {
        Path termination = dir.resolve("termination-log");
        Files.writeString(termination, "");
        SidecarWaitProcess.Result wait = SidecarWaitProcess.run(Map.of(), null, "wait", "--cacert", ca.cert.toString(),
                "--timeout", "2s", "--request-timeout", "1s", "--termination-log", termination.toString(),
                "--url", "https://localhost:" + escapes.port + "/");
        assertEquals(1, wait.exit(), wait.err());
        assertTrue(wait.err().contains("certificate '\\x1b[31mEVIL\\x1b[0m\\r\\n2026-01-01T00:00:00Z\\tinfo\\tready' is not for localhost"),
                wait.err());
        for (String line : wait.err().split("\n", -1)) {
            assertTrue(line.isEmpty() || line.matches("\\d{4}-\\d\\d-\\d\\dT[^\\t]*\\t(error|warn|info|debug)\\t[^\\t]*"),
                    "a line of the tool's own layout, with no tab or control character of the peer's: " + line);
        }
        assertFalse(wait.err().contains("\u001b") || wait.err().contains("\r"), wait.err());
        String message = Files.readString(termination);
        assertTrue(message.contains("\\x1b[31mEVIL"), message);
        assertFalse(message.chars().anyMatch(c -> c < 0x20), "no control character in the termination message: " + message);
    }
}
