package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.Version;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.tls.TlsConnection;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.PeerText;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * HTTP/1.1 over a socket (through TLS for https://): each exchange, handshake included, inside one deadline. A wait's
 * probes keep their connection for the target's next attempt, as pilot-agent's Go client does, so an https:// target
 * on a 503 costs one handshake, not one per attempt; every other request goes on a connection of its own.
 * Deliberately not java.net.http or HttpURLConnection: both are slow to start and heavy in a native image, and
 * a readiness probe needs none of what they offer.
 *
 * <p>A probe is decided by the status line, as the kubelet's and pilot-agent's are: the body is only glanced
 * at for messages (its first bytes, for a moment), never read to its end, so an endpoint that streams or keeps
 * the connection open after its status is not held against it.
 */
public final class PlainHttp {

    /**
     * What came back: the status, the start of the body (the peer's text: shown only through {@link #bodyLine}), and
     * where a redirect that was not followed pointed.
     */
    public record Response(int status, String body, String unfollowedRedirect) {

        public String bodyLine() {
            int end = body.indexOf('\n');
            return PeerText.shown((end < 0 ? body : body.substring(0, end)).strip(), PEEK_BYTES);
        }
    }

    /** The kubelet's HTTP probe stops after 10 redirects. */
    static final int MAX_REDIRECTS = 10;
    /** Enough for a probe's messages. */
    static final int PEEK_BYTES = 512;

    private final Clock clock;
    private final Connector connector;
    private final TlsSettings tls;
    private final KeptConnections kept = new KeptConnections();

    /** {@code tls}: how https:// servers are verified (and the identity offered to them). */
    public PlainHttp(Clock clock, TlsSettings tls) {
        this(clock, Resolver.ofSystem(clock), tls);
    }

    public PlainHttp(Clock clock, Resolver resolver, TlsSettings tls) {
        this.clock = clock;
        this.connector = new Connector(clock, resolver);
        this.tls = tls;
    }

    /**
     * A readiness probe: GET, following redirects the way the kubelet does (only to the same host name, at most
     * {@value #MAX_REDIRECTS}, all within the one timeout); a redirect elsewhere is the answer itself. The URL's
     * credentials follow only to the same scheme, host and port, as curl's do.
     */
    public Response probe(Target.Http target, Timeout timeout) throws ProbeFailure {
        long deadline = deadline(timeout);
        return probe(target, addresses(target, deadline), deadline, timeout);
    }

    /** As {@link #probe(Target.Http, Timeout)}, to the host's {@code addresses} (a redirect is followed only to the same host). */
    Response probe(Target.Http target, List<InetAddress> addresses, long deadline, Timeout timeout) throws ProbeFailure {
        Target.Http current = target;
        for (int hops = 0; ; hops++) {
            HttpResponse answer = exchange("GET", current, addresses, deadline, timeout, false, PEEK_BYTES, current == target);
            if (!isFollowedRedirect(answer.status()) || answer.location() == null) {
                return new Response(answer.status(), answer.body(), null);
            }
            Target.Http next = target.socket() == null ? redirectTarget(current, answer.location()) : null; // not off the socket
            String location = PeerText.shown(Target.redacted(answer.location()), 120);
            if (next == null || !next.host().equalsIgnoreCase(target.host())) {
                return new Response(answer.status(), answer.body(), location);
            }
            if (current.tls().tls() && !next.tls().tls()) {
                throw new ProbeFailure("redirected from https:// to plain http:// (" + location + "), not followed: a TLS "
                        + "target stays TLS");
            }
            if (hops + 1 >= MAX_REDIRECTS) {
                throw new ProbeFailure("stopped after " + MAX_REDIRECTS + " redirects");
            }
            current = current.redirected(next);
        }
    }

    /** One request whose status matters and whose body is only glanced at (the sidecar's quit POST). */
    public Response send(String method, Target.Http target, Timeout timeout) throws ProbeFailure {
        long deadline = deadline(timeout);
        HttpResponse answer = exchange(method, target, addresses(target, deadline), deadline, timeout, false, PEEK_BYTES, false);
        return new Response(answer.status(), answer.body(), null);
    }

    /** GET with the body read to its end (at most {@code maxBytes}), for callers that parse it. */
    public Response fetch(Target.Http target, Timeout timeout, int maxBytes) throws ProbeFailure {
        long deadline = deadline(timeout);
        HttpResponse answer = exchange("GET", target, addresses(target, deadline), deadline, timeout, true, maxBytes, false);
        return new Response(answer.status(), answer.body(), null);
    }

    /** The host's addresses; none to look up when the request goes over a Unix socket. */
    private List<InetAddress> addresses(Target.Http target, long deadline) throws ProbeFailure {
        return target.socket() != null ? List.of() : connector.addresses(target.host(), deadline);
    }

    private long deadline(Timeout timeout) {
        return clock.nanoTime() + timeout.millis() * 1_000_000;
    }

    /** The wait is over: the connections kept for its next attempts are closed. */
    public void close() {
        kept.closeAll();
    }

    /**
     * One request. With {@code keepAlive} (a probe's GET to a TCP target), a connection kept from the target's last
     * attempt is used when there is one, and this one kept when its response allows. A kept connection the server
     * closed or reset while it was idle (nothing came back) is followed by a new one, within the same deadline.
     */
    private HttpResponse exchange(String method, Target.Http target, List<InetAddress> addresses, long deadline, Timeout timeout,
                                  boolean wholeBody, int keepBytes, boolean keepAlive) throws ProbeFailure {
        if (target.socket() != null) {
            try (SocketChannel channel = UnixSockets.connect(target.socket(), deadline, clock, timeout)) {
                Wire wire = Wire.over(channel, deadline, clock, timeout, Wire.Peer.HTTP);
                wire.write(request(method, target, false).getBytes(StandardCharsets.ISO_8859_1));
                return HttpResponse.read(wire, method, wholeBody, keepBytes);
            } catch (IOException closing) {
                throw new ProbeFailure(ProbeFailure.describe(closing));
            }
        }
        HttpConnection reused = keepAlive ? kept.take(target, addresses) : null;
        if (reused != null) {
            Wire wire = reused.wire(deadline, clock, timeout);
            try {
                return ask(reused, wire, method, target, wholeBody, keepBytes, true);
            } catch (ProbeFailure failure) {
                if (wire.received() > 0 || clock.millisUntil(deadline) <= 0) {
                    throw failure;
                }
            }
        }
        Socket socket = connector.connect(addresses, target.port(), deadline, timeout);
        TlsConnection secure;
        try {
            secure = !target.tls().tls() ? null
                    : TlsConnection.open(socket, target.host(), target.tls(), null, tls, deadline, clock, timeout);
        } catch (ProbeFailure | RuntimeException refused) {
            Connector.close(socket);
            throw refused;
        }
        HttpConnection connection = new HttpConnection(socket, secure);
        return ask(connection, connection.wire(deadline, clock, timeout), method, target, wholeBody, keepBytes, keepAlive);
    }

    /** The request and its response on {@code connection}, which is then kept for the target or closed. */
    private HttpResponse ask(HttpConnection connection, Wire wire, String method, Target.Http target, boolean wholeBody,
                             int keepBytes, boolean keepAlive) throws ProbeFailure {
        boolean keep = false;
        try {
            wire.write(request(method, target, keepAlive).getBytes(StandardCharsets.ISO_8859_1));
            HttpResponse answer = HttpResponse.read(wire, method, wholeBody, keepBytes);
            keep = keepAlive && answer.reusable();
            return answer;
        } finally {
            if (keep) {
                kept.keep(target, connection);
            } else {
                connection.close();
            }
        }
    }

    static boolean isFollowedRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /** The target a Location header points at, resolved against the current URL; null when it is not HTTP(S). */
    static Target.Http redirectTarget(Target.Http from, String location) {
        try {
            String host = from.host().contains(":") ? "[" + from.host().replace("%", "%25") + "]" : from.host();
            String base = (from.tls().tls() ? "https://" : "http://") + host + ":" + from.port() + from.path();
            return Target.parse(UrlParts.resolved(base, location.trim())) instanceof Target.Http http ? http : null;
        } catch (IllegalArgumentException notPlainHttp) {
            return null;
        }
    }

    private static String request(String method, Target.Http target, boolean keepAlive) {
        String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
        return method + " " + target.path() + " HTTP/1.1\r\n"
                + "Host: " + host + ":" + target.port() + "\r\n"
                + "User-Agent: sidecar-wait/" + Version.VERSION + "\r\n"
                + "Accept: */*\r\n"
                + (target.basic() != null ? "Authorization: " + target.basic().header() + "\r\n" : "")
                + (method.equals("POST") ? "Content-Length: 0\r\n" : "")
                + (keepAlive ? "" : "Connection: close\r\n") + "\r\n";
    }
}
