package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.nio.charset.StandardCharsets;

/**
 * Redis: PING, answered "+PONG". An error that only Redis sends means it is up but still says no: -NOAUTH
 * (a password is required) counts as ready, since the server accepts connections; -LOADING (still reading its
 * data set), -BUSY (a script is running) and -MASTERDOWN (a replica without its master) do not.
 */
final class RedisPing implements Handshake {

    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        wire.write(PING);
        String reply = wire.line(512, "answered, but not as Redis");
        if (reply.equals("+PONG")) {
            return "PONG";
        }
        if (reply.startsWith("-NOAUTH")) {
            return "up; needs a password (" + reply.substring(1) + ")";
        }
        if (reply.startsWith("-LOADING")) {
            throw new ProbeFailure("Redis is still loading its data set into memory");
        }
        if (reply.startsWith("-BUSY")) {
            throw new ProbeFailure("Redis is busy running a script");
        }
        if (reply.startsWith("-MASTERDOWN")) {
            throw new ProbeFailure("Redis replica has lost its master (MASTERDOWN)");
        }
        if (reply.startsWith("-")) {
            throw new ProbeFailure("Redis answered with an error: " + ProbeFailure.abbreviate(reply.substring(1)));
        }
        throw new ProbeFailure("answered, but not as Redis: '" + ProbeFailure.abbreviate(reply) + "'");
    }
}
