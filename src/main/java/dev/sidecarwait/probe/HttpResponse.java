package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 response as {@link PlainHttp} reads it from a {@link Wire}: the status, the Location header (null when
 * none; both read by {@link HttpHead}), and the kept start of the body, read whole or only glanced at. Every length a
 * peer sends is capped.
 */
record HttpResponse(int status, String location, String body) {

    /** How long a probe waits for the first bytes of a body after its status has decided. */
    static final long PEEK_MILLIS = 50;
    private static final int MAX_HEADER_LINE = 16 * 1024;

    /** A response to {@code method}: status line, headers, and the body read whole or only glanced at. */
    static HttpResponse read(Wire wire, String method, boolean wholeBody, int keepBytes) throws ProbeFailure {
        HttpHead head = HttpHead.read(wire);
        int status = head.status;
        boolean noBody = method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304;
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        if (!noBody) {
            if (wholeBody) {
                readBody(wire, head.chunked, head.contentLength, kept, keepBytes);
            } else {
                peekBody(wire, head.chunked, head.contentLength, kept, keepBytes);
            }
        }
        return new HttpResponse(status, head.location, kept.toString(StandardCharsets.UTF_8));
    }

    /** The status has decided: take what the body offers for a moment, for messages, and never fail on it. */
    private static void peekBody(Wire wire, boolean chunked, long contentLength, ByteArrayOutputStream kept, int keepBytes) {
        wire.allowAtMost(PEEK_MILLIS);
        try {
            readBody(wire, chunked, contentLength, kept, keepBytes);
        } catch (ProbeFailure enoughSeen) {
            // a slow, endless or broken body says nothing about readiness
        }
    }

    private static void readBody(Wire wire, boolean chunked, long contentLength, ByteArrayOutputStream kept, int keepBytes)
            throws ProbeFailure {
        if (chunked) {
            for (long size = chunkSize(wire.line(MAX_HEADER_LINE, "malformed chunked body")); size > 0 && kept.size() < keepBytes;
                 size = chunkSize(wire.line(MAX_HEADER_LINE, "malformed chunked body"))) {
                copy(wire, size, kept, keepBytes, false);
                if (kept.size() < keepBytes) {
                    wire.line(2, "malformed chunked body");
                }
            }
        } else {
            copy(wire, contentLength >= 0 ? contentLength : Long.MAX_VALUE, kept, keepBytes, contentLength < 0);
        }
    }

    /** Copies up to {@code count} bytes, keeping at most {@code keepBytes} in all and reading no further. */
    private static void copy(Wire wire, long count, ByteArrayOutputStream kept, int keepBytes, boolean untilClose)
            throws ProbeFailure {
        for (long i = 0; i < count && kept.size() < keepBytes; i++) {
            int b = untilClose ? wire.read() : wire.next();
            if (b < 0) {
                return; // a body delimited by the end of the connection
            }
            kept.write(b);
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
