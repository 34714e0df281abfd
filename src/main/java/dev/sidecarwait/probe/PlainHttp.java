package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.Version;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket: one request per connection, the whole exchange inside one deadline, the body
 * read and discarded (its first line kept for messages). Deliberately not java.net.http or HttpURLConnection:
 * both are slow to start and heavy in a native image, and a readiness probe needs none of what they offer.
 */
public final class PlainHttp {

    /** What came back: the status and the start of the body (as much as was asked to be kept). */
    public record Response(int status, String body) {

        public String bodyLine() {
            int end = body.indexOf('\n');
            return (end < 0 ? body : body.substring(0, end)).strip();
        }
    }

    private static final int MAX_HEADER_BYTES = 16 * 1024;
    /** Enough for a probe's messages; callers that parse a body ask for more. */
    public static final int KEEP_FOR_MESSAGES = 512;

    private final Clock clock;
    private final Connector connector;

    public PlainHttp(Clock clock) {
        this.clock = clock;
        this.connector = new Connector(clock);
    }

    public Response exchange(String method, Target.Http target, long timeoutMillis) throws ProbeFailure {
        return exchange(method, target, timeoutMillis, KEEP_FOR_MESSAGES);
    }

    public Response exchange(String method, Target.Http target, long timeoutMillis, int keepBytes) throws ProbeFailure {
        long deadline = clock.nanoTime() + timeoutMillis * 1_000_000;
        Socket socket = connector.connect(target.host(), target.port(), deadline, timeoutMillis);
        try (socket) {
            OutputStream out = socket.getOutputStream();
            out.write(request(method, target).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Reader in = new Reader(socket, deadline, timeoutMillis, keepBytes);
            int status = statusOf(in.line());
            long contentLength = -1;
            boolean chunked = false;
            for (String header = in.line(); !header.isEmpty(); header = in.line()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    throw new ProbeFailure("malformed HTTP response header");
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                if (name.equals("content-length")) {
                    contentLength = parseLength(value);
                } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                    chunked = true;
                }
            }
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            if (method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304) {
                // no body
            } else if (chunked) {
                for (long size = chunkSize(in.line()); size > 0; size = chunkSize(in.line())) {
                    in.skip(size, kept);
                    in.line();
                }
            } else if (contentLength >= 0) {
                in.skip(contentLength, kept);
            } else {
                in.skip(Long.MAX_VALUE, kept);
            }
            return new Response(status, kept.toString(StandardCharsets.UTF_8));
        } catch (SocketTimeoutException e) {
            throw Connector.timedOut(timeoutMillis);
        } catch (IOException e) {
            throw new ProbeFailure(Connector.describe(e));
        }
    }

    private static String request(String method, Target.Http target) {
        String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
        return method + " " + target.path() + " HTTP/1.1\r\n"
                + "Host: " + host + ":" + target.port() + "\r\n"
                + "User-Agent: sidecar-wait/" + Version.VERSION + "\r\n"
                + "Accept: */*\r\n"
                + (method.equals("POST") ? "Content-Length: 0\r\n" : "")
                + "Connection: close\r\n\r\n";
    }

    private static int statusOf(String line) throws ProbeFailure {
        // "HTTP/1.1 200 OK"
        String[] parts = line.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("[0-9]{3}")) {
            throw new ProbeFailure("not an HTTP response: '" + abbreviate(line) + "'");
        }
        return Integer.parseInt(parts[1]);
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
        throw new ProbeFailure("malformed Content-Length '" + abbreviate(value) + "'");
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

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }

    /** Reads lines and body bytes, re-arming the socket timeout so no read outlives the deadline. */
    private final class Reader {
        private final Socket socket;
        private final InputStream in;
        private final long deadline;
        private final long timeoutMillis;
        private final int keepBytes;
        private final byte[] buffer = new byte[4096];
        private int start;
        private int end;

        Reader(Socket socket, long deadline, long timeoutMillis, int keepBytes) throws IOException {
            this.socket = socket;
            this.keepBytes = keepBytes;
            this.in = socket.getInputStream();
            this.deadline = deadline;
            this.timeoutMillis = timeoutMillis;
        }

        /** Fills the buffer; false at end of stream. */
        private boolean fill() throws IOException, ProbeFailure {
            long left = connector.millisLeft(deadline);
            if (left <= 0) {
                throw Connector.timedOut(timeoutMillis);
            }
            socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            int n = in.read(buffer);
            if (n < 0) {
                return false;
            }
            start = 0;
            end = n;
            return true;
        }

        String line() throws IOException, ProbeFailure {
            StringBuilder line = new StringBuilder();
            while (true) {
                if (start == end && !fill()) {
                    throw new ProbeFailure(line.length() == 0 && end == 0
                            ? "connection closed before a response" : "connection closed mid-response");
                }
                char c = (char) (buffer[start++] & 0xff);
                if (c == '\n') {
                    int len = line.length();
                    return len > 0 && line.charAt(len - 1) == '\r' ? line.substring(0, len - 1) : line.toString();
                }
                if (line.length() >= MAX_HEADER_BYTES) {
                    throw new ProbeFailure("HTTP response header too long");
                }
                line.append(c);
            }
        }

        void skip(long count, ByteArrayOutputStream kept) throws IOException, ProbeFailure {
            long left = count;
            while (left > 0) {
                if (start == end && !fill()) {
                    if (count == Long.MAX_VALUE) {
                        return; // body delimited by end of stream
                    }
                    throw new ProbeFailure("connection closed mid-response");
                }
                int n = (int) Math.min(left, end - start);
                int keep = Math.min(n, keepBytes - kept.size());
                if (keep > 0) {
                    kept.write(buffer, start, keep);
                }
                start += n;
                left -= n;
            }
        }
    }
}
