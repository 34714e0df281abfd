package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.util.Locale;

/**
 * An HTTP/1.1 response's status line and headers, read from a {@link Wire} with every length capped: what a probe
 * ({@link HttpResponse}) and the API server's client (kube/ApiConnection) need of them. A plain class: a record's
 * methods would be code in the binary that nothing calls.
 */
public final class HttpHead {

    /** How an answer that is no HTTP is described, its first line after it. */
    public static final String NOT_HTTP = "not an HTTP response: ";

    private static final int MAX_HEADER_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 64 * 1024;

    public final int status;
    /** Content-Length, or -1 when none was sent. */
    public final long contentLength;
    public final boolean chunked;
    /** The Location header, or null. */
    public final String location;
    /** Retry-After in seconds, or -1 (none, or a date). */
    public final long retryAfter;
    /** HTTP/1.1 and no "Connection: close": the server will take another request on the connection. */
    public final boolean persistent;

    private HttpHead(int status, long contentLength, boolean chunked, String location, long retryAfter, boolean persistent) {
        this.status = status;
        this.contentLength = contentLength;
        this.chunked = chunked;
        this.location = location;
        this.retryAfter = retryAfter;
        this.persistent = persistent;
    }

    public static HttpHead read(Wire wire) throws ProbeFailure {
        String statusLine = headerLine(wire);
        int status = statusOf(statusLine);
        boolean persistent = statusLine.startsWith("HTTP/1.1 ");
        long contentLength = -1;
        boolean chunked = false;
        String location = null;
        long retryAfter = -1;
        int headerBytes = 0;
        for (String header = headerLine(wire); !header.isEmpty(); header = headerLine(wire)) {
            headerBytes += header.length() + 2;
            if (headerBytes > MAX_HEADERS) {
                throw new ProbeFailure("HTTP response headers longer than " + MAX_HEADERS + " bytes");
            }
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new ProbeFailure("malformed HTTP response header");
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> contentLength = parseLength(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "location" -> location = value;
                case "retry-after" -> retryAfter = value.matches("[0-9]{1,6}") ? Long.parseLong(value) : -1;
                case "connection" -> persistent &= !hasToken(value, "close");
                default -> { }
            }
        }
        return new HttpHead(status, contentLength, chunked, location, retryAfter, persistent);
    }

    private static boolean hasToken(String value, String token) {
        for (String each : value.split(",")) {
            if (each.trim().equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }

    private static String headerLine(Wire wire) throws ProbeFailure {
        return wire.line(MAX_HEADER_LINE, "HTTP response header too long");
    }

    private static int statusOf(String line) throws ProbeFailure {
        // "HTTP/1.1 200 OK"
        if (line.length() >= 12 && line.startsWith("HTTP/") && line.charAt(8) == ' '
                && Character.isDigit(line.charAt(9)) && Character.isDigit(line.charAt(10)) && Character.isDigit(line.charAt(11))
                && (line.length() == 12 || line.charAt(12) == ' ')) {
            return Integer.parseInt(line.substring(9, 12));
        }
        throw new ProbeFailure(NOT_HTTP + "'" + ProbeFailure.abbreviate(line) + "'");
    }

    private static long parseLength(String value) throws ProbeFailure {
        try {
            long length = Long.parseLong(value);
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the failure below
        }
        throw new ProbeFailure("malformed Content-Length '" + ProbeFailure.abbreviate(value) + "'");
    }
}
