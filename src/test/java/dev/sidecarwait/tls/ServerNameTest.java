package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A target's host against a certificate's names, as RFC 6125 and Go's crypto/x509 match them. */
class ServerNameTest {

    private static final PeerCertificate ORDERS = new PeerCertificate("orders", "Test CA", Instant.EPOCH, Instant.EPOCH,
            List.of("orders.prod.svc.cluster.local", "*.orders.prod", "Vault.Example.COM."), List.of("10.0.0.7", "fd00::7"));

    @ParameterizedTest
    @CsvSource({
            "orders.prod.svc.cluster.local, true", "ORDERS.prod.svc.cluster.local, true", "orders.prod.svc.cluster.local., true",
            "a.orders.prod, true", "orders.prod, false", "a.b.orders.prod, false", "vault.example.com, true",
            "orders, false", "10.0.0.7, true", "10.0.0.8, false", "fd00::7, true", "fd00:0:0::7, true",
            "[fd00::7], false", "orders.prod.svc, false"})
    void namesMatchAsRfc6125Says(String host, boolean matches) {
        assertEquals(matches, ServerName.matches(host, ORDERS), host);
    }

    @ParameterizedTest
    @CsvSource({"*.svc, a.svc", "a*.prod.svc, ab.prod.svc", "*.*.svc, a.b.svc", "*, a"})
    void aWildcardStandsForOneWholeLabelBelowTwoOthers(String pattern, String host) {
        PeerCertificate certificate = new PeerCertificate("x", "Test CA", Instant.EPOCH, Instant.EPOCH, List.of(pattern), List.of());
        assertEquals(false, ServerName.matches(host, certificate), pattern);
    }

    @ParameterizedTest
    @CsvSource({"10.0.0.7", "orders.prod.svc.cluster.local"})
    void anIpAddressIsNeverADnsNameNorTheReverse(String name) {
        PeerCertificate dnsOnly = new PeerCertificate("x", "Test CA", Instant.EPOCH, Instant.EPOCH, List.of(name), List.of());
        PeerCertificate ipOnly = new PeerCertificate("x", "Test CA", Instant.EPOCH, Instant.EPOCH, List.of(), List.of(name));
        assertEquals(false, name.startsWith("10.") ? ServerName.matches(name, dnsOnly) : ServerName.matches(name, ipOnly), name);
    }

    @org.junit.jupiter.api.Test
    void aNameHoldingWhatNoDnsNameHoldsMatchesNothing() {
        for (String name : List.of("attacker.example\nDNS:localhost", "localhost\u0000.attacker.example", "localhost\u0000",
                "localhost\r", "localhost\n", " localhost", "local host", "l\u00f6calhost", "localhost\u2028")) {
            PeerCertificate certificate = new PeerCertificate("x", "Test CA", Instant.EPOCH, Instant.EPOCH, List.of(name), List.of());
            for (String host : List.of("localhost", name)) {
                assertEquals(false, ServerName.matches(host, certificate), name);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"_acme-challenge.example.com", "cache_1", "my-service.default.svc"})
    void underscoresAndHyphensAreAsGoTakesThem(String name) {
        PeerCertificate certificate = new PeerCertificate("x", "Test CA", Instant.EPOCH, Instant.EPOCH, List.of(name), List.of());
        assertEquals(true, ServerName.matches(name, certificate), name);
    }
}
