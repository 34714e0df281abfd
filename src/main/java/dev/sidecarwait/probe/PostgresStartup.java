package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.wire.BigEndian;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL, decided as pg_isready decides (libpq's PQping): a startup message for a throwaway user. Any
 * answer from the server means it accepts connections (an authentication request, or an error about this
 * user, database or password) except SQLSTATE 57P03, "cannot connect now": starting up, shutting down, or
 * in recovery. No credentials are sent or needed.
 */
final class PostgresStartup implements Handshake {

    private static final int PROTOCOL_3_0 = 196608;
    private static final int MAX_MESSAGE = 8192;

    /** SSLRequest: a message of 8 bytes, the code 1234 5679 (PostgreSQL's protocol, "SSL Session Encryption"). */
    private static final byte[] SSL_REQUEST = {0, 0, 0, 8, 0x04, (byte) 0xd2, 0x16, 0x2f};

    /** libpq's order: the SSLRequest first; 'S', TLS and the startup through it; 'N', plain text if sslmode allows. */
    @Override
    public String exchange(Wire wire, Target.Server target, Upgrade upgrade) throws ProbeFailure {
        TlsMode mode = target.tls();
        if (!mode.tls() || upgrade == null) {
            return exchange(wire, target);
        }
        wire.write(SSL_REQUEST);
        int answer = wire.next();
        if (answer == 'S' && !wire.hasUnread()) {
            return exchange(upgrade.toTls(mode), target);
        }
        if (answer == 'N') {
            if (mode == TlsMode.PREFER) {
                return exchange(wire, target) + "; no TLS: the server does not offer it (sslmode=prefer)";
            }
            throw new ProbeFailure("PostgreSQL does not offer TLS, which sslmode=" + mode.sslmode() + " requires (ssl = on "
                    + "in postgresql.conf)");
        }
        throw new ProbeFailure(answer == 'S' ? "PostgreSQL's answer to the SSLRequest came with more bytes (refused, as libpq does)"
                : "answered, but not as PostgreSQL");
    }

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        wire.write(startupMessage());
        int type = wire.next();
        int length = BigEndian.int32(wire.next(4), 0);
        if ((type != 'R' && type != 'E' && type != 'v') || length < 4 || length > MAX_MESSAGE) {
            throw new ProbeFailure("answered, but not as PostgreSQL");
        }
        byte[] body = wire.next(length - 4);
        if (type != 'E') {
            return "accepts connections (asked for authentication)";
        }
        String code = field(body, 'C');
        String message = ProbeFailure.abbreviate(field(body, 'M'));
        if (code.equals("57P03")) {
            throw new ProbeFailure(notYet(message));
        }
        return "accepts connections (refused the probe's throwaway user: " + message + ")";
    }

    private static String notYet(String message) {
        if (message.contains("starting up")) {
            return "PostgreSQL is starting up";
        }
        if (message.contains("shutting down")) {
            return "PostgreSQL is shutting down";
        }
        return "PostgreSQL is not accepting connections yet: " + message;
    }

    static byte[] startupMessage() {
        ByteArrayOutputStream params = new ByteArrayOutputStream();
        for (String text : new String[] {"user", THROWAWAY_USER, "database", THROWAWAY_USER,
                "application_name", THROWAWAY_USER}) {
            params.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            params.write(0);
        }
        params.write(0);
        byte[] rest = params.toByteArray();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        BigEndian.int32(message, 8 + rest.length);
        BigEndian.int32(message, PROTOCOL_3_0);
        message.writeBytes(rest);
        return message.toByteArray();
    }

    /** An ErrorResponse field: a one-byte code, then a NUL-terminated string; the list ends with a NUL. */
    static String field(byte[] body, char code) {
        int at = 0;
        while (at < body.length && body[at] != 0) {
            int end = at + 1;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            if (body[at] == code) {
                return new String(body, at + 1, end - at - 1, StandardCharsets.UTF_8);
            }
            at = end + 1;
        }
        return "";
    }
}
