package dev.sidecarwait.tls;

import java.time.Instant;
import java.util.List;

/**
 * What the failure lines say about the server's certificate: its subject's and issuer's common names, when it is
 * valid, and its names (DNS names, and IP addresses as text).
 */
public record PeerCertificate(String subject, String issuer, Instant notBefore, Instant notAfter, List<String> dnsNames,
                              List<String> ipAddresses) {

    public PeerCertificate {
        dnsNames = List.copyOf(dnsNames);
        ipAddresses = List.copyOf(ipAddresses);
    }

    /** Its names as a failure line lists them: "DNS:orders.prod.svc, IP:10.0.0.7", or the subject's CN alone. */
    public String names() {
        List<String> all = new java.util.ArrayList<>();
        for (String name : dnsNames) {
            all.add("DNS:" + name);
        }
        for (String address : ipAddresses) {
            all.add("IP:" + address);
        }
        return all.isEmpty() ? "none but its subject CN '" + subject + "', which is not checked" : String.join(", ", all);
    }
}
