package dev.sidecarwait.tls;

/**
 * A failed handshake or record, in the engine's terms: the alert the server sent (a TLS alert number), or -1 and
 * the engine's own description.
 */
public final class TlsException extends Exception {

    private final int alert;

    public TlsException(int alert, String description) {
        super(description, null, false, false);
        this.alert = alert;
    }

    /** The server's alert, or -1 when the failure is this side's. */
    public int alert() {
        return alert;
    }
}
