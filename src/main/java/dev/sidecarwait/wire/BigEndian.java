package dev.sidecarwait.wire;

import java.io.ByteArrayOutputStream;

/** Integers in network byte order, as PostgreSQL, Kafka, AMQP, HTTP/2 and gRPC frame their messages. */
public final class BigEndian {

    private BigEndian() {
    }

    /** A signed 16-bit integer at {@code at}. */
    public static int int16(byte[] bytes, int at) {
        return (short) ((bytes[at] & 0xff) << 8 | (bytes[at + 1] & 0xff));
    }

    public static int int32(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8 | (bytes[at + 3] & 0xff);
    }

    public static long uint32(byte[] bytes, int at) {
        return int32(bytes, at) & 0xffffffffL;
    }

    public static void int16(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    public static void int32(ByteArrayOutputStream out, int value) {
        int16(out, value >>> 16);
        int16(out, value);
    }
}
