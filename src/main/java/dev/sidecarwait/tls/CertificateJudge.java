package dev.sidecarwait.tls;

import dev.sidecarwait.Clock;
import java.time.Instant;

/**
 * Decides on the server's certificate while the handshake waits, before anything of the client's identity is sent:
 * the failure line that refuses it, or null to go on. Each engine asks where its chain has been checked (the JDK's
 * trust manager, Mbed TLS's verify step), and TlsConnection once more after the handshake, for a server that sent no
 * certificate. The same rules, and the same words, for both engines.
 */
final class CertificateJudge {

    private final String host;
    private final boolean checkName;
    private final Trust trust;
    private final Clock clock;

    /** {@code checkName}: whether {@code host} must be among the certificate's names (verify-full), or only the chain checked. */
    CertificateJudge(String host, boolean checkName, Trust trust, Clock clock) {
        this.host = host;
        this.checkName = checkName;
        this.trust = trust;
        this.clock = clock;
    }

    /**
     * {@code certificate}: the leaf as the engine read it (null: none); {@code finding}: null when the engine found the
     * chain good; {@code chain}: the chain as DER, for the rules both engines apply alike (null: not known, after the
     * handshake).
     */
    String refusal(PeerCertificate certificate, ChainFinding finding, VerifiedChain chain) {
        if (certificate == null) {
            return "the server sent no certificate";
        }
        String broken = chain == null ? null : chain.refusal(finding != null);
        if (broken != null) {
            return TlsFailures.rejected(certificate.subject(), broken);
        }
        if (finding != null) {
            return TlsFailures.chain(finding, certificate, trust, clock.now());
        }
        if (checkName && !ServerName.matches(host, certificate)) {
            return TlsFailures.name(host, certificate);
        }
        return null;
    }

    /** The time the chain's dates are judged at. */
    Instant now() {
        return clock.now();
    }
}
