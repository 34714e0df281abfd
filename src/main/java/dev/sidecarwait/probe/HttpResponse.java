package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 response as {@link PlainHttp} reads it from a {@link Wire}: the status, the Location header (null when
 * none; both read by {@link HttpHead}), the kept start of the body, read whole or only glanced at, and whether the
 * connection may carry another request (the server keeps it, and the body was read to its exact end with nothing
 * after it). Every length a peer sends is capped.
 */
record HttpResponse(int status, String location, String body, boolean reusable) {

    /** How long a probe waits for the first bytes of a body after its status has decided. */
    static final long PEEK_MILLIS = 50;
    /** How much of a body a probe reads to keep its connection (beyond what it keeps): an error page, not a stream. */
    static final int DRAINED_BYTES = 16 * 1024;
    private static final int MAX_HEADER_LINE = 16 * 1024;

    /** A response to {@code method}: status line, headers, and the body read whole or only glanced at. */
    static HttpResponse read(Wire wire, String method, boolean wholeBody, int keepBytes) throws ProbeFailure {
        HttpHead head = HttpHead.read(wire);
        int status = head.status;
        boolean noBody = method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304;
        Body body = new Body(wire, keepBytes, head.persistent && !wholeBody ? DRAINED_BYTES : keepBytes);
        boolean ended = noBody;
        if (!noBody) {
            ended = wholeBody ? body.read(head) : peek(wire, body, head);
        }
        return new HttpResponse(status, head.location, body.kept.toString(StandardCharsets.UTF_8),
                ended && head.persistent && !wire.hasUnread());
    }

    /** The status has decided: take what the body offers for a moment, for messages, and never fail on it. */
    private static boolean peek(Wire wire, Body body, HttpHead head) {
        wire.allowAtMost(PEEK_MILLIS);
        try {
            return body.read(head);
        } catch (ProbeFailure enoughSeen) {
            return false; // a slow, endless or broken body says nothing about readiness
        }
    }

    /** A body read from the wire: its first {@code keepBytes} kept, at most {@code readable} bytes read in all. */
    private static final class Body {
        private final Wire wire;
        private final int keepBytes;
        private long readable;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        Body(Wire wire, int keepBytes, long readable) {
            this.wire = wire;
            this.keepBytes = keepBytes;
            this.readable = readable;
        }

        /** Whether the body's exact end was read: its whole length, or its last chunk and trailers. */
        boolean read(HttpHead head) throws ProbeFailure {
            if (!head.chunked) {
                return head.contentLength >= 0 ? copy(head.contentLength) : untilClose();
            }
            for (long size = chunkSize(line()); size > 0; size = chunkSize(line())) {
                if (!copy(size)) {
                    return false;
                }
                wire.line(2, "malformed chunked body");
            }
            for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                readable -= trailer.length();
                if (readable < 0) {
                    return false;
                }
            }
            return true;
        }

        private String line() throws ProbeFailure {
            return wire.line(MAX_HEADER_LINE, "malformed chunked body");
        }

        /** Reads {@code count} bytes; false when that is more than may be read. */
        private boolean copy(long count) throws ProbeFailure {
            for (long i = 0; i < count; i++) {
                if (readable-- <= 0) {
                    return false;
                }
                keep(wire.next());
            }
            return true;
        }

        /** A body delimited by the end of the connection: read while allowed; the connection is never used again. */
        private boolean untilClose() throws ProbeFailure {
            for (int b; readable-- > 0 && (b = wire.read()) >= 0; ) {
                keep(b);
            }
            return false;
        }

        private void keep(int b) {
            if (kept.size() < keepBytes) {
                kept.write(b);
            }
        }
    }

    private static long chunkSize(String line) throws ProbeFailure {
        int semicolon = line.indexOf(';');
        String hex = (semicolon < 0 ? line : line.substring(0, semicolon)).trim();
        try {
            return Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new ProbeFailure("malformed chunked body");
        }
    }
}
