package dev.sidecarwait.tls;

/**
 * Whether and how a connection uses TLS, with libpq's names for the modes (its sslmode): OFF and PREFER (TLS when
 * the server offers it, else plain) are PostgreSQL's alone; every TLS scheme (https://, tls://, rediss://, ...)
 * is VERIFY_FULL unless --insecure.
 */
public enum TlsMode {
    /** Plain text. */
    OFF,
    /** TLS if the server offers it, unverified, else plain (libpq's default). */
    PREFER,
    /** TLS, unverified: the traffic is encrypted, the server not authenticated. */
    REQUIRE,
    /** TLS, the chain verified against the trusted CAs; the name not checked. */
    VERIFY_CA,
    /** TLS, the chain verified and the target's name found in the certificate. */
    VERIFY_FULL;

    public boolean tls() {
        return this != OFF;
    }

    public boolean verifiesChain() {
        return this == VERIFY_CA || this == VERIFY_FULL;
    }

    /** libpq's spelling. */
    public String sslmode() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
