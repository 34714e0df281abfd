package dev.sidecarwait.probe;

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
        String message = field(body, 'M');
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
