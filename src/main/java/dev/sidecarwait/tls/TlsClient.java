package dev.sidecarwait.tls;

/** Makes the engines of one run, from its trust and identity, parsed once: one per runtime (TlsClients). */
public interface TlsClient {

    /**
     * An engine for one connection. {@code serverName}: sent as SNI (null for an IP address); {@code judge}: decides
     * on the server's certificate once its chain is checked, before the handshake goes on (null: not verified);
     * {@code alpn}: one application protocol to offer, or null.
     */
    TlsEngine engine(String serverName, CertificateJudge judge, String alpn) throws TlsException;

    /** How many of the trusted certificates this engine can use as CAs: none means nothing can be verified. */
    int usableCas();
}
