package dev.sidecarwait.tls;

/**
 * A run's TLS: the trusted CAs, the client's identity (null: none) and --insecure, settled once. The engine maker
 * (TlsClients) is made at the first TLS connection: a run with no TLS target touches none of it.
 */
public final class TlsSettings {

    private final Trust trust;
    private final Identity identity;
    private final boolean insecure;
    private TlsClient client;

    public TlsSettings(Trust trust, Identity identity, boolean insecure) {
        this.trust = trust;
        this.identity = identity;
        this.insecure = insecure;
    }

    /** For a run with no TLS target: nothing to trust, no identity. */
    public static TlsSettings unused() {
        return new TlsSettings(Trust.notRead(), null, false);
    }

    public Trust trust() {
        return trust;
    }

    public Identity identity() {
        return identity;
    }

    public boolean insecure() {
        return insecure;
    }

    /**
     * The warning --insecure earns wherever it applies: {@code urls} are those of a run whose servers would otherwise
     * be verified (null when there are none, or certificates are verified).
     */
    public String insecureWarning(java.util.List<String> urls) {
        return !insecure || urls.isEmpty() ? null : "TLS servers' certificates are not verified (--insecure): any server, "
                + "or anything between, passes as " + String.join(", ", urls);
    }

    /**
     * Makes the run's engine maker now, where a key that is not its certificate's is refused ({@link BadFile}) before
     * anything is probed; without an identity there is nothing to check, and nothing is made until a TLS connection.
     */
    public void checkIdentity() {
        if (identity != null) {
            client();
        }
    }

    /** How many of the trusted certificates the runtime's TLS can use as CAs (it makes the engine maker now). */
    public int usableCas() {
        return client().usableCas();
    }

    synchronized TlsClient client() {
        if (client == null) {
            client = TlsClients.forRuntime(trust, identity);
        }
        return client;
    }

    /** What check shows: how servers are verified, and the identity offered. */
    public String describe() {
        return (insecure ? "servers not verified (--insecure)" : "servers verified against " + trust.source())
                + (identity == null ? "" : "; client certificate " + identity.certFile() + " (key " + identity.keyFile() + ")");
    }
}
