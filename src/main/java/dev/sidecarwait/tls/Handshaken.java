package dev.sidecarwait.tls;

/**
 * A finished handshake: the version and application protocol agreed, the server's certificate (null if it sent
 * none), what was wrong with its chain (null: nothing, or it was not checked), and whether the server asked for a
 * client certificate (in TLS 1.3 it may then still refuse the client, after the handshake). A plain class: nothing
 * compares or prints one.
 */
public final class Handshaken {

    private final String version;
    private final String alpn;
    private final PeerCertificate certificate;
    private final ChainFinding finding;
    private final boolean askedForCertificate;

    Handshaken(String version, String alpn, PeerCertificate certificate, ChainFinding finding, boolean askedForCertificate) {
        this.version = version;
        this.alpn = alpn;
        this.certificate = certificate;
        this.finding = finding;
        this.askedForCertificate = askedForCertificate;
    }

    /** "TLSv1.3", "TLSv1.2". */
    public String version() {
        return version;
    }

    /** The application protocol agreed by ALPN, or null. */
    public String alpn() {
        return alpn;
    }

    public PeerCertificate certificate() {
        return certificate;
    }

    ChainFinding finding() {
        return finding;
    }

    boolean askedForCertificate() {
        return askedForCertificate;
    }
}
