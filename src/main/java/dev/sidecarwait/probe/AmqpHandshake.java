package dev.sidecarwait.probe;

import dev.sidecarwait.wire.BigEndian;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * AMQP 0-9-1 (RabbitMQ): the protocol header, to which a ready server answers with Connection.Start, its first
 * method. A server that speaks another version answers with its own protocol header instead, and closes.
 */
final class AmqpHandshake implements Handshake {

    static final byte[] HEADER = {'A', 'M', 'Q', 'P', 0, 0, 9, 1};
    private static final int METHOD_FRAME = 1;
    private static final int FRAME_END = 0xce;
    /** Before Connection.Tune, frames are at most frame-min-size (4096); some room for servers that stretch it. */
    private static final int MAX_FRAME = 64 * 1024;

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        wire.write(HEADER);
        byte[] head = wire.next(7);
        if (head[0] == 'A' && head[1] == 'M' && head[2] == 'Q' && head[3] == 'P') {
            byte[] rest = wire.next(1);
            throw new ProbeFailure("the server speaks another AMQP (it answered with protocol header " + (head[4] & 0xff)
                    + "-" + (head[5] & 0xff) + "-" + (head[6] & 0xff) + "-" + (rest[0] & 0xff) + ", not 0-9-1)");
        }
        int size = BigEndian.int32(head, 3);
        if (head[0] != METHOD_FRAME || head[1] != 0 || head[2] != 0 || size < 4 || size > MAX_FRAME) {
            throw new ProbeFailure("answered, but not as AMQP 0-9-1");
        }
        byte[] method = wire.next(size);
        if (wire.next() != FRAME_END || method[0] != 0 || method[1] != 10 || method[2] != 0 || method[3] != 10) {
            throw new ProbeFailure("answered, but not with AMQP's Connection.Start");
        }
        return "Connection.Start" + server(method);
    }

    /** " from PRODUCT VERSION", from the server-properties table after the version bytes; "" when not there. */
    static String server(byte[] method) {
        String product = null;
        String version = null;
        int at = 6;
        if (method.length < at + 4) {
            return "";
        }
        long tableLength = BigEndian.uint32(method, at);
        at += 4;
        int end = (int) Math.min(method.length, at + tableLength);
        while (at < end) {
            int nameLength = method[at++] & 0xff;
            if (at + nameLength + 1 > end) {
                break;
            }
            String name = new String(method, at, nameLength, StandardCharsets.UTF_8);
            at += nameLength;
            char type = (char) method[at++];
            long valueLength = switch (type) {
                case 't', 'b', 'B' -> 1;
                case 's', 'u' -> 2;
                case 'I', 'i', 'f' -> 4;
                case 'D' -> 5;
                case 'l', 'd', 'T' -> 8;
                case 'V' -> 0;
                case 'S', 'x', 'A', 'F' -> at + 4 <= end ? 4 + BigEndian.uint32(method, at) : -1;
                default -> -1;
            };
            if (valueLength < 0 || valueLength > end - at) {
                break; // a type this reader does not know, or a length past the table: what was read stands
            }
            if (type == 'S' && (name.equals("product") || name.equals("version"))) {
                String value = new String(Arrays.copyOfRange(method, at + 4, at + (int) valueLength), StandardCharsets.UTF_8);
                if (name.equals("product")) {
                    product = value;
                } else {
                    version = value;
                }
            }
            at += (int) valueLength;
        }
        return product == null ? "" : " from " + ProbeFailure.abbreviate(product + (version == null ? "" : " " + version));
    }
}
