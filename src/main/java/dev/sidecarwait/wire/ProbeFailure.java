package dev.sidecarwait.wire;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.util.Locale;

/** A network failure, already worded for a log line ("connection refused", "request timed out after 500 ms"). */
public final class ProbeFailure extends Exception {

    public ProbeFailure(String reason) {
        super(reason, null, false, false);
    }

    /** How an I/O error reads in a log line: "connection refused", "connection reset", the JDK's message. */
    public static String describe(IOException e) {
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof NoRouteToHostException) {
            return "no route to host";
        }
        if (e instanceof Worded) {
            return e.getMessage();
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof SocketException && message.toLowerCase(Locale.ROOT).contains("reset")) {
            return "connection reset";
        }
        return message.toLowerCase(Locale.ROOT);
    }

    /** A peer's text as a failure quotes it: at most 60 characters, its control characters escaped (PeerText). */
    public static String abbreviate(String text) {
        return PeerText.shown(text, 60);
    }

    /** An I/O failure whose message is already a log line's reason (a TLS alert, say): reported as it is. */
    public static final class Worded extends IOException {
        public Worded(String reason) {
            super(reason);
        }
    }
}
