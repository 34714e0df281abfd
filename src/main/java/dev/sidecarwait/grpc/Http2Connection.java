package dev.sidecarwait.grpc;

import dev.sidecarwait.wire.BigEndian;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The client side of an HTTP/2 connection over cleartext with prior knowledge (RFC 9113, section 3.3), as much of
 * it as one request on stream 1 needs: the connection preface and SETTINGS, acknowledging the server's SETTINGS,
 * answering its PINGs, GOAWAY and RST_STREAM understood, header blocks (with CONTINUATION) decoded by one
 * {@link Hpack} decoder. A frame longer than SETTINGS_MAX_FRAME_SIZE's initial value, which this client never
 * raises, or a header block longer than {@link #MAX_HEADER_BLOCK}, is refused before anything is allocated for it.
 */
final class Http2Connection {

    static final int DATA = 0;
    static final int HEADERS = 1;
    static final int RST_STREAM = 3;
    static final int SETTINGS = 4;
    static final int PUSH_PROMISE = 5;
    static final int PING = 6;
    static final int GOAWAY = 7;
    static final int CONTINUATION = 9;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int PADDED = 0x8;
    static final int PRIORITY = 0x20;
    static final int MAX_FRAME = 16_384;
    static final int MAX_HEADER_BLOCK = 64 * 1024;
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** SETTINGS_ENABLE_PUSH = 0: this client takes no pushed streams. */
    private static final byte[] CLIENT_SETTINGS = {0, 2, 0, 0, 0, 0};

    /** A frame of the one stream, its payload without padding or priority fields. */
    record Frame(int type, int flags, int stream, byte[] payload) {

        boolean endStream() {
            return (flags & END_STREAM) != 0;
        }
    }

    /** A stream's headers: the decoded fields and whether the stream ended with them. */
    record Headers(List<Hpack.Field> fields, boolean endStream) {

        String get(String name) {
            for (Hpack.Field field : fields) {
                if (field.name().equals(name)) {
                    return field.value();
                }
            }
            return null;
        }
    }

    private final Wire wire;
    private final Hpack hpack = new Hpack();
    private boolean heardFromServer;

    Http2Connection(Wire wire) {
        this.wire = wire;
    }

    /** The connection preface, then this client's SETTINGS. */
    void open() throws ProbeFailure {
        ByteArrayOutputStream start = new ByteArrayOutputStream();
        start.writeBytes(PREFACE);
        start.writeBytes(frame(SETTINGS, 0, 0, CLIENT_SETTINGS));
        wire.write(start.toByteArray());
    }

    /** A request on stream 1: its header fields (HPACK literals, no Huffman, no indexing), then one DATA frame. */
    void request(List<Hpack.Field> fields, byte[] body) throws ProbeFailure {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(frame(HEADERS, END_HEADERS, 1, Hpack.encode(fields)));
        out.writeBytes(frame(DATA, END_STREAM, 1, body));
        wire.write(out.toByteArray());
    }

    /** Response headers (or trailers) of stream 1, with any CONTINUATION frames; the next frame must be them. */
    Headers headers(Frame first) throws ProbeFailure {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(first.payload());
        int flags = first.flags();
        while ((flags & END_HEADERS) == 0) {
            Frame next = raw();
            if (next.type() != CONTINUATION || next.stream() != first.stream()) {
                throw new ProbeFailure("malformed HTTP/2 (a header block interrupted by frame type " + next.type() + ")");
            }
            if (block.size() + next.payload().length > MAX_HEADER_BLOCK) {
                throw new ProbeFailure("HTTP/2 header block longer than " + MAX_HEADER_BLOCK + " bytes");
            }
            block.writeBytes(next.payload());
            flags = next.flags();
        }
        return new Headers(hpack.decode(block.toByteArray()), first.endStream());
    }

    /**
     * The next frame of stream 1. On the way, the server's SETTINGS are acknowledged and its PINGs answered; a
     * GOAWAY that leaves stream 1 unprocessed, or any error, ends the exchange with the server's reason.
     */
    Frame next() throws ProbeFailure {
        while (true) {
            Frame frame = raw();
            switch (frame.type()) {
                case SETTINGS -> {
                    if ((frame.flags() & ACK) == 0) {
                        if (frame.payload().length % 6 != 0) {
                            throw new ProbeFailure("malformed HTTP/2 SETTINGS frame");
                        }
                        wire.write(frame(SETTINGS, ACK, 0, new byte[0]));
                    }
                }
                case PING -> {
                    if ((frame.flags() & ACK) == 0) {
                        wire.write(frame(PING, ACK, 0, frame.payload()));
                    }
                }
                case GOAWAY -> {
                    int lastStream = BigEndian.int32(frame.payload(), 0) & 0x7fffffff;
                    int error = BigEndian.int32(frame.payload(), 4);
                    if (error != 0 || lastStream < 1) {
                        String debug = new String(frame.payload(), 8, frame.payload().length - 8, StandardCharsets.UTF_8);
                        throw new ProbeFailure("the server closed the connection (GOAWAY " + errorName(error)
                                + (debug.isBlank() ? "" : ": " + ProbeFailure.abbreviate(debug.strip())) + ")");
                    }
                }
                case PUSH_PROMISE -> throw new ProbeFailure("malformed HTTP/2 (a push this client did not allow)");
                case RST_STREAM -> {
                    if (frame.stream() == 1) {
                        throw new ProbeFailure("the server reset the stream (" + errorName(BigEndian.int32(frame.payload(), 0)) + ")");
                    }
                }
                case DATA, HEADERS -> {
                    if (frame.stream() == 1) {
                        return frame;
                    }
                }
                default -> {
                    // PRIORITY, WINDOW_UPDATE, unknown types: nothing to do for one short request
                }
            }
        }
    }

    /** GOAWAY with no error: the quiet way to end a connection, after which the socket is closed. */
    void close() {
        try {
            wire.write(frame(GOAWAY, 0, 0, new byte[8]));
        } catch (ProbeFailure alreadyGone) {
            // nothing to say goodbye to
        }
    }

    /** One frame as it arrives, checked against the frame format and its size limit; padding and priority removed. */
    private Frame raw() throws ProbeFailure {
        byte[] header = wire.next(9);
        if (!heardFromServer && new String(header, 0, 5, StandardCharsets.ISO_8859_1).equals("HTTP/")) {
            throw new ProbeFailure("answered with HTTP/1, not HTTP/2 (gRPC needs HTTP/2 without TLS)");
        }
        int length = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | (header[2] & 0xff);
        int type = header[3] & 0xff;
        int flags = header[4] & 0xff;
        int stream = BigEndian.int32(header, 5) & 0x7fffffff;
        if (!heardFromServer && (type != SETTINGS || (flags & ACK) != 0)) {
            throw new ProbeFailure("answered, but not as HTTP/2 (the server's first frame must be SETTINGS)");
        }
        heardFromServer = true;
        if (length > MAX_FRAME) {
            throw new ProbeFailure("HTTP/2 frame of " + length + " bytes, more than the " + MAX_FRAME + " allowed");
        }
        byte[] payload = wire.next(length);
        int from = 0;
        int to = length;
        if ((type == DATA || type == HEADERS) && (flags & PADDED) != 0) {
            if (length < 1 || (payload[0] & 0xff) >= length) {
                throw new ProbeFailure("malformed HTTP/2 frame (padding longer than the frame)");
            }
            from = 1;
            to = length - (payload[0] & 0xff);
        }
        if (type == HEADERS && (flags & PRIORITY) != 0) {
            from += 5;
        }
        int minimum = switch (type) {
            case RST_STREAM -> 4;
            case PING -> 8;
            case GOAWAY -> 8;
            default -> 0;
        };
        if (from > to || to - from < minimum || type == PING && length != 8) {
            throw new ProbeFailure("malformed HTTP/2 frame (type " + type + ", " + length + " bytes)");
        }
        return new Frame(type, flags, stream, java.util.Arrays.copyOfRange(payload, from, to));
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >>> 16);
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        frame[5] = (byte) (stream >>> 24 & 0x7f);
        frame[6] = (byte) (stream >>> 16);
        frame[7] = (byte) (stream >>> 8);
        frame[8] = (byte) stream;
        System.arraycopy(payload, 0, frame, 9, payload.length);
        return frame;
    }

    /** RFC 9113, section 7. */
    static String errorName(int code) {
        String[] names = {"NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR",
                "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"};
        return code >= 0 && code < names.length ? names[code] : "error " + Integer.toUnsignedString(code);
    }
}
