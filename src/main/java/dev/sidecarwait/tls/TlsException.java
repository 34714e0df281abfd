package dev.sidecarwait.tls;

/**
 * A failed handshake or record, in the engine's terms: the alert the server sent (a TLS alert number), or -1 and
 * the engine's own description; or the server's certificate refused by this client, its failure line already worded.
 */
public final class TlsException extends Exception {

    private final int alert;
    private final boolean refused;

    public TlsException(int alert, String description) {
        this(alert, description, false);
    }

    private TlsException(int alert, String description, boolean refused) {
        super(description, null, false, false);
        this.alert = alert;
        this.refused = refused;
    }

    /** The server's certificate, refused by a {@link CertificateJudge} with {@code line}. */
    static TlsException refused(String line) {
        return new TlsException(-1, line, true);
    }

    /** The server's alert, or -1 when the failure is this side's. */
    public int alert() {
        return alert;
    }

    /** Whether this side refused the server's certificate: the message is the failure line. */
    public boolean refused() {
        return refused;
    }
}
