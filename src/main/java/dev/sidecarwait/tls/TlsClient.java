package dev.sidecarwait.tls;

/** Makes the engines of one run, from its trust and identity, parsed once: one per runtime (TlsClients). */
public interface TlsClient {

    /**
     * An engine for one connection. {@code serverName}: sent as SNI (null for an IP address); {@code verify}: whether
     * the chain is checked (the result says how it went; the handshake goes on either way); {@code alpn}: one
     * application protocol to offer, or null.
     */
    TlsEngine engine(String serverName, boolean verify, String alpn) throws TlsException;
}
