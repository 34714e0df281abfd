package dev.sidecarwait.tls;

import dev.sidecarwait.UtcTime;
import java.time.Instant;
import java.util.Map;

/** The one-line reasons a TLS connection failed, the same whichever engine made it. */
final class TlsFailures {

    /** RFC 8446's and RFC 5246's alert names, for the alerts a server sends a client. */
    static final Map<Integer, String> ALERTS = Map.ofEntries(Map.entry(0, "close_notify"), Map.entry(10, "unexpected_message"),
            Map.entry(20, "bad_record_mac"), Map.entry(22, "record_overflow"), Map.entry(40, "handshake_failure"),
            Map.entry(42, "bad_certificate"), Map.entry(43, "unsupported_certificate"), Map.entry(44, "certificate_revoked"),
            Map.entry(45, "certificate_expired"), Map.entry(46, "certificate_unknown"), Map.entry(47, "illegal_parameter"),
            Map.entry(48, "unknown_ca"), Map.entry(49, "access_denied"), Map.entry(50, "decode_error"),
            Map.entry(51, "decrypt_error"), Map.entry(70, "protocol_version"), Map.entry(71, "insufficient_security"),
            Map.entry(80, "internal_error"), Map.entry(86, "inappropriate_fallback"), Map.entry(90, "user_canceled"),
            Map.entry(109, "missing_extension"), Map.entry(110, "unsupported_extension"), Map.entry(112, "unrecognized_name"),
            Map.entry(116, "certificate_required"), Map.entry(120, "no_application_protocol"));

    /** A chain signed over SHA-1 or weaker, in the same words for both engines. */
    static final String WEAK_HASH = "signed with a hash this client does not accept (SHA-1 or weaker: SHA-256 or better is needed)";

    private TlsFailures() {
    }

    static int alertNumber(String name) {
        for (Map.Entry<Integer, String> alert : ALERTS.entrySet()) {
            if (alert.getValue().equals(name)) {
                return alert.getKey();
            }
        }
        return -1;
    }

    /** The server's alert, with what it usually means for a client like this one. */
    static String alert(int alert, boolean sentCertificate) {
        String name = ALERTS.getOrDefault(alert, "number " + alert);
        String meaning = switch (alert) {
            case 116 -> ": it wants a client certificate (--cert and --key)";
            case 40 -> sentCertificate ? ": no cipher suite or signature in common, or it refused the client certificate"
                    : ": no cipher suite in common, or it wants a client certificate (--cert and --key)";
            case 42, 43, 44, 45, 46, 48, 49 -> sentCertificate ? ": it refused the client certificate" : "";
            case 70 -> ": no TLS version in common (this client speaks TLS 1.2 and 1.3)";
            case 71 -> ": no cipher suite in common";
            case 112 -> ": it serves no certificate for the name sent (SNI)";
            case 120 -> ": it does not speak the application protocol offered (ALPN)";
            default -> "";
        };
        return "the server ended TLS with alert " + name + " (" + alert + ")" + meaning;
    }

    static String chain(ChainFinding finding, PeerCertificate certificate, Trust trust, Instant now) {
        String subject = " '" + PeerCertificate.shown(certificate.subject()) + "'";
        ChainFinding.Dated dated = finding.dated() != null ? finding.dated()
                : new ChainFinding.Dated(0, certificate.subject(), certificate.notBefore(), certificate.notAfter());
        String ca = dated.depth() == 0 ? "" : " CA certificate '" + PeerCertificate.shown(dated.subject()) + "' ("
                + depth(dated.depth()) + " in the chain of" + subject + ")";
        return switch (finding.problem()) {
            case UNTRUSTED -> "untrusted certificate" + subject + ": its issuer '" + PeerCertificate.shown(certificate.issuer())
                    + "' is not among the trusted CAs: " + trust.source();
            case EXPIRED -> "expired" + (ca.isEmpty() ? " certificate" + subject : ca) + ": valid until " + time(dated.notAfter())
                    + ", now " + time(now);
            case NOT_YET_VALID -> (ca.isEmpty() ? "certificate not yet valid" + subject : ca.strip() + " not yet valid") + ": valid from "
                    + time(dated.notBefore()) + ", now " + time(now);
            case OTHER -> rejected(certificate.subject(), finding.detail());
        };
    }

    /** A chain refused for a reason of its own, the server's certificate named by its CN. */
    static String rejected(String subject, String reason) {
        return "certificate rejected '" + PeerCertificate.shown(subject) + "': " + reason;
    }

    /** Where a certificate sits in a chain, the server's own at 0. */
    private static String depth(int depth) {
        return depth == 1 ? "its issuer" : "depth " + depth;
    }

    static String name(String host, PeerCertificate certificate) {
        return "certificate '" + PeerCertificate.shown(certificate.subject()) + "' is not for " + host + " (its names: " + certificate.names() + ")";
    }

    private static String time(Instant instant) {
        return UtcTime.seconds(instant);
    }
}
