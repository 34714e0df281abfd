package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import java.util.Locale;

/**
 * The TLS a database URL asks for, spelled as its own client spells it: PostgreSQL's sslmode (libpq: disable,
 * allow, prefer, require, verify-ca, verify-full) and MySQL's ssl-mode (the mysql client's --ssl-mode: DISABLED,
 * PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY; sslMode as Connector/J spells it); and NATS's tls=required. Without one, plain text, as
 * before TLS was supported here. libpq's allow (plain first) is plain: a server that wants TLS still answers the plain
 * startup with an error, which tells that it accepts connections.
 */
final class TlsParameters {

    private TlsParameters() {
    }

    static TlsMode mode(Protocol protocol, String rawQuery) {
        return switch (protocol) {
            case POSTGRES -> postgres(UrlQuery.value(rawQuery, "sslmode"));
            case MYSQL -> mysql(UrlQuery.value(rawQuery, "ssl-mode") != null ? UrlQuery.value(rawQuery, "ssl-mode")
                    : UrlQuery.value(rawQuery, "sslMode"));
            case NATS -> nats(UrlQuery.value(rawQuery, "tls"));
            default -> TlsMode.OFF;
        };
    }

    private static TlsMode postgres(String sslmode) {
        if (sslmode == null) {
            return TlsMode.OFF;
        }
        return switch (sslmode) {
            case "disable", "allow" -> TlsMode.OFF;
            case "prefer" -> TlsMode.PREFER;
            case "require" -> TlsMode.REQUIRE;
            case "verify-ca" -> TlsMode.VERIFY_CA;
            case "verify-full" -> TlsMode.VERIFY_FULL;
            default -> throw new IllegalArgumentException("sslmode '" + sslmode + "' is not one of disable, allow, prefer, "
                    + "require, verify-ca, verify-full");
        };
    }

    /**
     * NATS's own clients ask for TLS with the tls:// scheme, which here is the bare TLS handshake; ?tls=required says
     * it instead: the server's INFO must then say tls_required, and TLS follows, verified. Without it, TLS is used
     * when the INFO asks for it, which anything between the client and the server can strip.
     */
    private static TlsMode nats(String tls) {
        if (tls == null) {
            return TlsMode.OFF;
        }
        if (tls.equals("required")) {
            return TlsMode.VERIFY_FULL;
        }
        throw new IllegalArgumentException("tls '" + tls + "' is not 'required', the one value it takes");
    }

    private static TlsMode mysql(String sslMode) {
        if (sslMode == null) {
            return TlsMode.OFF;
        }
        return switch (sslMode.toUpperCase(Locale.ROOT)) {
            case "DISABLED" -> TlsMode.OFF;
            case "PREFERRED" -> TlsMode.PREFER;
            case "REQUIRED" -> TlsMode.REQUIRE;
            case "VERIFY_CA" -> TlsMode.VERIFY_CA;
            case "VERIFY_IDENTITY" -> TlsMode.VERIFY_FULL;
            default -> throw new IllegalArgumentException("ssl-mode '" + sslMode + "' is not one of DISABLED, PREFERRED, "
                    + "REQUIRED, VERIFY_CA, VERIFY_IDENTITY");
        };
    }
}
