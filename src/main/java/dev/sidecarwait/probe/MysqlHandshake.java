package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * MySQL and MariaDB: the server speaks first. Its initial handshake (protocol version 10) means ready; an
 * error packet ("Too many connections", "Host is blocked") means not. Then, like mysqladmin ping, the probe
 * finishes the login as a throwaway user with no password instead of hanging up mid-handshake, which the
 * server would count against max_connect_errors and, after enough probes, answer by blocking this host.
 */
final class MysqlHandshake implements Handshake {

    private static final int CLIENT_LONG_PASSWORD = 0x1;
    private static final int CLIENT_PROTOCOL_41 = 0x200;
    private static final int CLIENT_SECURE_CONNECTION = 0x8000;
    private static final int CLIENT_SSL = 0x800;
    /** The mysql client's names for the modes, for messages. */
    private static final Map<TlsMode, String> MYSQL_MODES = Map.of(TlsMode.REQUIRE, "REQUIRED", TlsMode.VERIFY_CA, "VERIFY_CA",
            TlsMode.VERIFY_FULL, "VERIFY_IDENTITY");
    private static final int MAX_PACKET = 64 * 1024;
    private static final long LOGIN_MILLIS = 200;

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        return exchange(wire, target, null);
    }

    /**
     * With ssl-mode: the greeting is plain text, then the client's SSL request (its capabilities with CLIENT_SSL,
     * sequence 1) and TLS; the login goes on through it, as the mysql client's does.
     */
    @Override
    public String exchange(Wire wire, Target.Server target, Upgrade upgrade) throws ProbeFailure {
        byte[] greeting = packet(wire);
        if (greeting.length > 0 && (greeting[0] & 0xff) == 0xff) {
            throw new ProbeFailure("MySQL refused the connection: " + error(greeting));
        }
        if (greeting.length < 2 || greeting[0] != 10) {
            throw new ProbeFailure("answered, but not as MySQL"
                    + (greeting.length > 0 ? " (protocol version " + (greeting[0] & 0xff) + ")" : ""));
        }
        int end = 1;
        while (end < greeting.length && greeting[end] != 0) {
            end++;
        }
        String version = ProbeFailure.abbreviate(new String(greeting, 1, end - 1, StandardCharsets.UTF_8));
        TlsMode mode = upgrade == null ? TlsMode.OFF : target.tls();
        if (!mode.tls()) {
            logIn(wire, 1);
            return "server " + version;
        }
        // after the version's NUL: thread id (4), auth data (8), a filler (1), then the capabilities' low two bytes
        int capabilities = end + 15 < greeting.length ? (greeting[end + 14] & 0xff) | (greeting[end + 15] & 0xff) << 8 : 0;
        if ((capabilities & CLIENT_SSL) == 0) {
            if (mode == TlsMode.PREFER) {
                logIn(wire, 1);
                return "server " + version + "; no TLS: the server does not offer it (ssl-mode=PREFERRED)";
            }
            throw new ProbeFailure("MySQL does not offer TLS, which ssl-mode=" + MYSQL_MODES.get(mode) + " requires");
        }
        wire.write(packet(1, capabilities(CLIENT_SSL)));
        Wire secure = upgrade.toTls(mode);
        logIn(secure, 2);
        return "server " + version;
    }

    /** Ready is decided; the login only keeps the server from counting a broken handshake. */
    private static void logIn(Wire wire, int sequence) {
        try {
            wire.write(packet(sequence, handshakeResponse()));
            wire.allowAtMost(LOGIN_MILLIS);
            byte[] reply = packet(wire);
            if (reply.length > 0 && reply[0] == 0) {
                wire.write(packet(0, new byte[] {1})); // COM_QUIT: logged in (a server without grant tables)
            }
        } catch (ProbeFailure ignored) {
            // the server answered its greeting; what it says to a throwaway user does not matter
        }
    }

    /** The first part of a handshake response: capabilities, the largest packet, a character set, 23 zero bytes. */
    private static byte[] capabilities(int extra) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(int32(CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | extra));
        out.writeBytes(int32(16 * 1024 * 1024));
        out.write(33); // utf8_general_ci
        out.writeBytes(new byte[23]);
        return out.toByteArray();
    }

    private static byte[] handshakeResponse() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(capabilities(0));
        out.writeBytes(THROWAWAY_USER.getBytes(StandardCharsets.US_ASCII));
        out.write(0);
        out.write(0); // no password
        return out.toByteArray();
    }

    /** An ERR packet: 0xff, a two-byte code, optionally '#' and a five-character SQL state, then the message. */
    static String error(byte[] payload) {
        int code = payload.length >= 3 ? (payload[1] & 0xff) | (payload[2] & 0xff) << 8 : 0;
        int at = payload.length > 3 && payload[3] == '#' ? 9 : 3;
        String message = at < payload.length ? new String(payload, at, payload.length - at, StandardCharsets.UTF_8) : "";
        return code + " " + message;
    }

    private static byte[] packet(Wire wire) throws ProbeFailure {
        byte[] header = wire.next(4);
        int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
        if (length > MAX_PACKET) {
            throw new ProbeFailure("answered, but not as MySQL");
        }
        return wire.next(length);
    }

    private static byte[] packet(int sequence, byte[] payload) {
        byte[] packet = new byte[payload.length + 4];
        packet[0] = (byte) payload.length;
        packet[1] = (byte) (payload.length >>> 8);
        packet[2] = (byte) (payload.length >>> 16);
        packet[3] = (byte) sequence;
        System.arraycopy(payload, 0, packet, 4, payload.length);
        return packet;
    }

    private static byte[] int32(int value) {
        return new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)};
    }
}
