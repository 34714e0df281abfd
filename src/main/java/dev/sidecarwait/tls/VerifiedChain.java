package dev.sidecarwait.tls;

import java.util.ArrayList;
import java.util.List;

/**
 * A server's chain as an engine checked it, as DER: the path it verified (the server's certificate first, the trust
 * anchor last when it reached one), what the server sent, and the trusted CAs. {@link ChainRules} judge the path; when
 * the engine refused the chain, the path the names make (each certificate's issuer found by name among those sent, then
 * the CAs) is judged too, for the reason in words: that path decides nothing, it only explains a refusal.
 */
final class VerifiedChain {

    /** Longer than any chain either engine verifies (Mbed TLS: 8 intermediates). */
    static final int MOST_CERTIFICATES = 12;

    private final List<byte[]> path;
    private final List<byte[]> sent;
    private final List<byte[]> anchors;

    VerifiedChain(List<byte[]> path, List<byte[]> sent, List<byte[]> anchors) {
        this.path = path;
        this.sent = sent;
        this.anchors = anchors;
    }

    /** The first rule the chain breaks, in words, or null; {@code refused}: whether the engine refused it already. */
    String refusal(boolean refused) {
        if (path.isEmpty() && !refused) {
            return "no path the engine verified reached this client's rules"; // fails closed: never accepted unjudged
        }
        String broken = path.isEmpty() ? null : judged(path, false);
        if (broken != null || !refused) {
            return broken;
        }
        List<byte[]> named = byNames();
        return named == null ? null : judged(named, true);
    }

    private String judged(List<byte[]> certificates, boolean explaining) {
        List<CertificateParts> parts = new ArrayList<>();
        for (byte[] der : certificates) {
            try {
                parts.add(new CertificateParts(der));
            } catch (IllegalArgumentException e) {
                return (parts.isEmpty() ? "this certificate" : "a CA certificate of its chain (depth " + parts.size() + ")")
                        + " cannot be read by this client (" + e.getMessage() + ")";
            }
        }
        try {
            return ChainRules.refusal(parts, isAnchor(certificates.get(certificates.size() - 1)), explaining);
        } catch (IllegalArgumentException e) {
            return "a certificate of its chain cannot be read by this client (" + e.getMessage() + ")";
        }
    }

    private boolean isAnchor(byte[] der) {
        return contains(anchors, der);
    }

    /** The path the issuers' names make from the server's certificate to a trusted CA, or null when they make none. */
    private List<byte[]> byNames() {
        try {
            List<byte[]> named = new ArrayList<>(List.of(sent.get(0)));
            CertificateParts top = new CertificateParts(sent.get(0));
            while (named.size() < MOST_CERTIFICATES && !isAnchor(named.get(named.size() - 1))) {
                byte[] issuer = issuer(top, anchors, named);
                if (issuer == null) {
                    issuer = issuer(top, sent, named);
                }
                if (issuer == null) {
                    return null;
                }
                named.add(issuer);
                top = new CertificateParts(issuer);
            }
            return isAnchor(named.get(named.size() - 1)) ? named : null;
        } catch (IllegalArgumentException | IndexOutOfBoundsException unreadable) {
            return null;
        }
    }

    private static byte[] issuer(CertificateParts certificate, List<byte[]> among, List<byte[]> taken) {
        for (byte[] der : among) {
            if (!contains(taken, der)) {
                try {
                    if (certificate.issuedBy(new CertificateParts(der))) {
                        return der;
                    }
                } catch (IllegalArgumentException unreadable) {
                    // not this one
                }
            }
        }
        return null;
    }

    private static boolean contains(List<byte[]> certificates, byte[] der) {
        for (byte[] certificate : certificates) {
            if (java.util.Arrays.equals(certificate, der)) {
                return true;
            }
        }
        return false;
    }
}
