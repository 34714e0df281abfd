package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What crosses from native/tls/swtls.c to Java about a certificate: typed fields, read by their lengths, so a name
 * holding a newline or a NUL arrives whole and matches nothing; fields that do not add up are refused, not guessed at.
 */
class PeerFieldsTest {

    private static void field(ByteArrayOutputStream out, int type, byte[] value) {
        out.write(type);
        out.write(value.length >> 8);
        out.write(value.length & 0xff);
        out.writeBytes(value);
    }

    private static byte[] time(int year, int month, int day) {
        return new byte[] {(byte) (year >> 8), (byte) year, (byte) month, (byte) day, 12, 30, 5};
    }

    private static ByteArrayOutputStream certificate(String cn, String... dnsNames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        field(out, PeerFields.SUBJECT_CN, cn.getBytes(StandardCharsets.UTF_8));
        field(out, PeerFields.ISSUER_CN, "Test CA".getBytes(StandardCharsets.UTF_8));
        field(out, PeerFields.NOT_BEFORE, time(2025, 1, 1));
        field(out, PeerFields.NOT_AFTER, time(2030, 12, 31));
        for (String name : dnsNames) {
            field(out, PeerFields.DNS, name.getBytes(StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static PeerFields.Read read(ByteArrayOutputStream out) {
        byte[] bytes = out.toByteArray();
        return PeerFields.read(bytes, bytes.length);
    }

    @Test
    void aCertificateIsReadFieldByField() {
        ByteArrayOutputStream out = certificate("orders", "orders.prod.svc");
        field(out, PeerFields.IP, new byte[] {10, 0, 0, 7});
        field(out, PeerFields.IP, new byte[] {1, 2, 3}); // no address: left out
        field(out, 99, new byte[] {1, 2}); // a type this reader does not know: skipped
        PeerFields.Read read = read(out);
        PeerCertificate certificate = read.certificate();
        assertEquals("orders", certificate.subject());
        assertEquals("Test CA", certificate.issuer());
        assertEquals(Instant.parse("2025-01-01T12:30:05Z"), certificate.notBefore());
        assertEquals(Instant.parse("2030-12-31T12:30:05Z"), certificate.notAfter());
        assertEquals(List.of("orders.prod.svc"), certificate.dnsNames());
        assertEquals(List.of("10.0.0.7"), certificate.ipAddresses());
        assertNull(read.dated());
    }

    @Test
    void aNameHoldingANewlineOrANulArrivesWholeAndMatchesNothing() {
        PeerCertificate forged = read(certificate("x\nx\n20250101000000\n20300101000000\nDNS:localhost",
                "attacker.example\nDNS:localhost", "localhost\0.attacker.example")).certificate();
        assertEquals(List.of("attacker.example\nDNS:localhost", "localhost\0.attacker.example"), forged.dnsNames());
        assertFalse(ServerName.matches("localhost", forged));
        assertFalse(forged.names().chars().anyMatch(c -> c < 0x20), forged.names());
    }

    @Test
    void theCertificateOfTheChainOutOfItsDatesIsNamedWithItsDepth() {
        ByteArrayOutputStream out = certificate("orders", "orders.prod.svc");
        field(out, PeerFields.DATED_DEPTH, new byte[] {1});
        field(out, PeerFields.DATED_CN, "Issuing CA".getBytes(StandardCharsets.UTF_8));
        field(out, PeerFields.DATED_NOT_BEFORE, time(2020, 1, 1));
        field(out, PeerFields.DATED_NOT_AFTER, time(2021, 1, 1));
        ChainFinding.Dated dated = read(out).dated();
        assertEquals(1, dated.depth());
        assertEquals("Issuing CA", dated.subject());
        assertEquals(Instant.parse("2020-01-01T12:30:05Z"), dated.notBefore());
        assertEquals(Instant.parse("2021-01-01T12:30:05Z"), dated.notAfter());
    }

    @Test
    void fieldsThatDoNotAddUpAreRefused() {
        byte[] whole = certificate("orders", "orders.prod.svc").toByteArray();
        assertThrows(IllegalArgumentException.class, () -> PeerFields.read(whole, whole.length - 1)); // a field cut short
        assertThrows(IllegalArgumentException.class, () -> PeerFields.read(whole, whole.length + 1)); // past the buffer
        ByteArrayOutputStream noDates = new ByteArrayOutputStream();
        field(noDates, PeerFields.SUBJECT_CN, new byte[] {'x'});
        assertThrows(IllegalArgumentException.class, () -> read(noDates));
        ByteArrayOutputStream badDate = new ByteArrayOutputStream();
        field(badDate, PeerFields.NOT_BEFORE, time(2025, 13, 1));
        field(badDate, PeerFields.NOT_AFTER, time(2025, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> read(badDate));
    }
}
