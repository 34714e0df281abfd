package dev.sidecarwait.tls;

import dev.sidecarwait.wire.PeerText;
import java.time.Instant;
import java.util.List;

/**
 * What the failure lines say about the server's certificate: its subject's and issuer's common names, when it is
 * valid, and its names (DNS names, and IP addresses as text). Every string here is the peer's: shown only through
 * {@link #shown}, escaped and cut. A plain class: nothing compares or prints one whole.
 */
public final class PeerCertificate {

    /** How many of its names a failure line lists. */
    static final int NAMES_SHOWN = 8;
    /** How much of one name or CN a failure line shows. */
    static final int NAME_CHARS = 80;

    private final String subject;
    private final String issuer;
    private final Instant notBefore;
    private final Instant notAfter;
    private final List<String> dnsNames;
    private final List<String> ipAddresses;

    public PeerCertificate(String subject, String issuer, Instant notBefore, Instant notAfter, List<String> dnsNames,
                           List<String> ipAddresses) {
        this.subject = subject;
        this.issuer = issuer;
        this.notBefore = notBefore;
        this.notAfter = notAfter;
        this.dnsNames = List.copyOf(dnsNames);
        this.ipAddresses = List.copyOf(ipAddresses);
    }

    public String subject() {
        return subject;
    }

    public String issuer() {
        return issuer;
    }

    public Instant notBefore() {
        return notBefore;
    }

    public Instant notAfter() {
        return notAfter;
    }

    public List<String> dnsNames() {
        return dnsNames;
    }

    public List<String> ipAddresses() {
        return ipAddresses;
    }

    /** A name of the certificate's as a line shows it: control characters escaped, cut at {@value #NAME_CHARS}. */
    static String shown(String name) {
        return PeerText.shown(name, NAME_CHARS);
    }

    /** Its names as a failure line lists them: "DNS:orders.prod.svc, IP:10.0.0.7", or the subject's CN alone. */
    public String names() {
        List<String> all = new java.util.ArrayList<>();
        for (String name : dnsNames) {
            all.add("DNS:" + shown(name));
        }
        for (String address : ipAddresses) {
            all.add("IP:" + address);
        }
        if (all.isEmpty()) {
            return "none but its subject CN '" + shown(subject) + "', which is not checked";
        }
        return all.size() <= NAMES_SHOWN ? String.join(", ", all)
                : String.join(", ", all.subList(0, NAMES_SHOWN)) + " and " + (all.size() - NAMES_SHOWN) + " more";
    }
}
