package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.Version;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket: one request per connection, the whole exchange inside one deadline.
 * Deliberately not java.net.http or HttpURLConnection: both are slow to start and heavy in a native image, and
 * a readiness probe needs none of what they offer.
 *
 * <p>A probe is decided by the status line, as the kubelet's and pilot-agent's are: the body is only glanced
 * at for messages (its first bytes, for a moment), never read to its end, so an endpoint that streams or keeps
 * the connection open after its status is not held against it.
 */
public final class PlainHttp {

    /** What came back: the status, the start of the body, and where a redirect that was not followed pointed. */
    public record Response(int status, String body, String unfollowedRedirect) {

        public String bodyLine() {
            int end = body.indexOf('\n');
            return (end < 0 ? body : body.substring(0, end)).strip();
        }
    }

    /** The kubelet's HTTP probe stops after 10 redirects. */
    static final int MAX_REDIRECTS = 10;
    /** Enough for a probe's messages. */
    static final int PEEK_BYTES = 512;
    /** How long a probe waits for the first bytes of a body after its status has decided. */
    static final long PEEK_MILLIS = 50;
    private static final int MAX_HEADER_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 64 * 1024;

    private final Clock clock;
    private final Connector connector;

    public PlainHttp(Clock clock) {
        this(clock, Resolver.ofSystem(clock));
    }

    public PlainHttp(Clock clock, Resolver resolver) {
        this.clock = clock;
        this.connector = new Connector(clock, resolver);
    }

    /**
     * A readiness probe: GET, following redirects the way the kubelet does (only to the same host name, at most
     * {@value #MAX_REDIRECTS}, all within the one timeout); a redirect elsewhere is the answer itself.
     */
    public Response probe(Target.Http target, Timeout timeout) throws ProbeFailure {
        long deadline = deadline(timeout);
        return probe(target, addresses(target, deadline), deadline, timeout);
    }

    /** As {@link #probe(Target.Http, Timeout)}, to the host's {@code addresses} (a redirect is followed only to the same host). */
    Response probe(Target.Http target, List<InetAddress> addresses, long deadline, Timeout timeout) throws ProbeFailure {
        Target.Http current = target;
        for (int hops = 0; ; hops++) {
            Exchange answer = exchange("GET", current, addresses, deadline, timeout, false, PEEK_BYTES);
            if (!isFollowedRedirect(answer.status) || answer.location == null) {
                return new Response(answer.status, answer.body, null);
            }
            Target.Http next = target.socket() == null ? redirectTarget(current, answer.location) : null; // not off the socket
            if (next == null || !next.host().equalsIgnoreCase(target.host())) {
                return new Response(answer.status, answer.body, Target.redacted(answer.location));
            }
            if (hops + 1 >= MAX_REDIRECTS) {
                throw new ProbeFailure("stopped after " + MAX_REDIRECTS + " redirects");
            }
            current = next;
        }
    }

    /** One request whose status matters and whose body is only glanced at (the sidecar's quit POST). */
    public Response send(String method, Target.Http target, Timeout timeout) throws ProbeFailure {
        long deadline = deadline(timeout);
        Exchange answer = exchange(method, target, addresses(target, deadline), deadline, timeout, false, PEEK_BYTES);
        return new Response(answer.status, answer.body, null);
    }

    /** GET with the body read to its end (at most {@code maxBytes}), for callers that parse it. */
    public Response fetch(Target.Http target, Timeout timeout, int maxBytes) throws ProbeFailure {
        long deadline = deadline(timeout);
        Exchange answer = exchange("GET", target, addresses(target, deadline), deadline, timeout, true, maxBytes);
        return new Response(answer.status, answer.body, null);
    }

    /** One response as read: the status, the Location header (null when none), the kept start of the body. */
    record Exchange(int status, String location, String body) {
    }

    /** The host's addresses; none to look up when the request goes over a Unix socket. */
    private List<InetAddress> addresses(Target.Http target, long deadline) throws ProbeFailure {
        return target.socket() != null ? List.of() : connector.addresses(target.host(), deadline);
    }

    private long deadline(Timeout timeout) {
        return clock.nanoTime() + timeout.millis() * 1_000_000;
    }

    private Exchange exchange(String method, Target.Http target, List<InetAddress> addresses, long deadline, Timeout timeout,
                              boolean wholeBody, int keepBytes) throws ProbeFailure {
        if (target.socket() != null) {
            try (SocketChannel channel = UnixSockets.connect(target.socket(), deadline, clock, timeout)) {
                Wire wire = Wire.over(channel, deadline, clock, timeout, Wire.Peer.HTTP);
                wire.write(request(method, target).getBytes(StandardCharsets.ISO_8859_1));
                return read(wire, method, wholeBody, keepBytes);
            } catch (IOException closing) {
                throw new ProbeFailure(ProbeFailure.describe(closing));
            }
        }
        Socket socket = connector.connect(addresses, target.port(), deadline, timeout);
        try (socket) {
            Wire wire = new Wire(socket, deadline, clock, timeout, Wire.Peer.HTTP);
            wire.write(request(method, target).getBytes(StandardCharsets.ISO_8859_1));
            return read(wire, method, wholeBody, keepBytes);
        } catch (IOException closing) {
            throw new ProbeFailure(ProbeFailure.describe(closing));
        }
    }

    /** A response to {@code method}: status line, headers, and the body read whole or only glanced at. */
    static Exchange read(Wire wire, String method, boolean wholeBody, int keepBytes) throws ProbeFailure {
        int status = statusOf(wire.line(MAX_HEADER_LINE, "HTTP response header too long"));
        long contentLength = -1;
        boolean chunked = false;
        String location = null;
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
                default -> { }
            }
        }
        boolean noBody = method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304;
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        if (!noBody) {
            if (wholeBody) {
                readBody(wire, chunked, contentLength, kept, keepBytes);
            } else {
                peekBody(wire, chunked, contentLength, kept, keepBytes);
            }
        }
        return new Exchange(status, location, kept.toString(StandardCharsets.UTF_8));
    }

    private static String headerLine(Wire wire) throws ProbeFailure {
        return wire.line(MAX_HEADER_LINE, "HTTP response header too long");
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

    static boolean isFollowedRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /** The target a Location header points at, resolved against the current URL; null when it is not plain HTTP. */
    static Target.Http redirectTarget(Target.Http from, String location) {
        try {
            String host = from.host().contains(":") ? "[" + from.host() + "]" : from.host();
            URI resolved = new URI("http://" + host + ":" + from.port() + from.path()).resolve(location.trim());
            return Target.parse(resolved.toString()) instanceof Target.Http http ? http : null;
        } catch (IllegalArgumentException | java.net.URISyntaxException notPlainHttp) {
            return null;
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
        if (line.length() >= 12 && line.startsWith("HTTP/") && line.charAt(8) == ' '
                && Character.isDigit(line.charAt(9)) && Character.isDigit(line.charAt(10)) && Character.isDigit(line.charAt(11))
                && (line.length() == 12 || line.charAt(12) == ' ')) {
            return Integer.parseInt(line.substring(9, 12));
        }
        throw new ProbeFailure("not an HTTP response: '" + ProbeFailure.abbreviate(line) + "'");
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
