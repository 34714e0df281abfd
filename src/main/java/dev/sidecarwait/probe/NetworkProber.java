package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Literals;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpTableRow;
import dev.sidecarwait.sockets.TcpState;
import dev.sidecarwait.tls.TlsConnection;
import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.wire.PeerText;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Probes over the network: the name looked up first (dns:// asks no more), then a GET for http:// targets, a bare
 * connect for tcp:// ones, and the server's own handshake for the others; listening sockets are looked up in the
 * socket table.
 */
public final class NetworkProber implements Prober {

    private final Clock clock;
    private final ExpectedStatus expected;
    private final PlainHttp http;
    private final Connector connector;
    private final ProcNetTcp sockets;
    private final TlsSettings tls;

    public NetworkProber(Clock clock, ExpectedStatus expected, TlsSettings tls) {
        this(clock, expected, Resolver.ofSystem(clock), tls);
    }

    /** With the names resolved by {@code resolver} (tests give it their own hosts and resolv.conf). */
    public NetworkProber(Clock clock, ExpectedStatus expected, Resolver resolver, TlsSettings tls) {
        this.clock = clock;
        this.expected = expected;
        this.tls = tls;
        this.http = new PlainHttp(clock, resolver, tls);
        this.connector = new Connector(clock, resolver);
        this.sockets = new ProcNetTcp(Path.of("/proc"));
    }

    /**
     * One look. Whatever a peer sends ends as this probe's failure with its reason: an answer no reader here expected
     * (a fault of ours it would be) is still the probe's failure, never the end of the wait.
     */
    @Override
    public ProbeResult probe(Target target, Timeout timeout) {
        long start = clock.nanoTime();
        try {
            return probeOnce(target, timeout, start);
        } catch (RuntimeException unexpected) {
            return new ProbeResult(target, false, 0, "an answer this probe could not read ("
                    + PeerText.shown(String.valueOf(unexpected), 120) + ")", "", since(start));
        }
    }

    private ProbeResult probeOnce(Target target, Timeout timeout, long start) {
        long deadline = start + timeout.millis() * 1_000_000;
        if (target instanceof Target.Listening listening) {
            return listening(listening, start);
        }
        if (target instanceof Target.Kube) {
            throw new IllegalStateException("a k8s:// target is asked of the API server (kube/KubeProber), not probed here");
        }
        if (target instanceof Target.InPod || onSocket(target)) {
            return local(target, start, deadline, timeout);
        }
        List<InetAddress> addresses = List.of();
        try {
            List<InetAddress> found = connector.addresses(target.host(), deadline);
            addresses = named(target.host()) ? found : List.of(); // what a name resolved to is worth showing
            if (target instanceof Target.Dns) {
                return new ProbeResult(target, true, 0, "", "", since(start), addresses);
            }
            if (target instanceof Target.Http httpTarget) {
                return answered(httpTarget, http.probe(httpTarget, found, deadline, timeout), start, addresses);
            }
            Socket socket = connector.connect(found, target.port(), deadline, timeout);
            Secured secured = new Secured(socket, target.host(), deadline, timeout);
            try {
                String said = "";
                if (target instanceof Target.Tls) {
                    secured.open(TlsMode.VERIFY_FULL, null);
                } else if (target instanceof Target.Server server) {
                    Handshake handshake = server.protocol().handshake();
                    said = server.tls().tls() && server.protocol().tlsScheme != null // TLS from the first byte: rediss://
                            ? handshake.exchange(secured.toTls(server.tls(), server.protocol().alpn()), server)
                            : handshake.exchange(new Wire(socket, deadline, clock, timeout, Wire.Peer.SERVER), server,
                                    mode -> secured.toTls(mode, null));
                }
                return new ProbeResult(target, true, 0, "", secured.describe(said), since(start), addresses);
            } finally {
                secured.close();
                Connector.close(socket);
            }
        } catch (ProbeFailure failure) {
            return new ProbeResult(target, false, 0, failure.getMessage(), "", since(start), addresses);
        }
    }

    @Override
    public void finished() { // the HTTP connections kept between the wait's attempts
        http.close();
    }

    /**
     * A result as a person reads it (check, a wait's last line): a TLS server closes a plain connection without a
     * word, as a proxy with no upstream does, and one unverified handshake, within {@code timeout}, tells the two
     * apart: "...; it speaks TLS: use https://". Asked only there, never at each attempt of a wait.
     */
    public ProbeResult explained(ProbeResult result, Timeout timeout) {
        Target target = result.target();
        String scheme = target instanceof Target.Http http && !http.tls().tls() && http.socket() == null ? "https"
                : target instanceof Target.Server server && !server.tls().tls() && server.socket() == null ? server.protocol().tlsScheme
                : null;
        String failure = result.detail();
        // a TLS server closes a plain connection without a word, or with an alert where a status line was expected
        boolean silent = failure.equals(Wire.Peer.HTTP.closedSilent) || failure.equals(Wire.Peer.SERVER.closedSilent)
                || failure.equals(Wire.Peer.SERVER.resetSilent) || failure.equals(Wire.Peer.HTTP.resetSilent)
                || target instanceof Target.Http && (failure.equals(Wire.CLOSED_MID_RESPONSE)
                || failure.startsWith(HttpHead.NOT_HTTP));
        if (result.ready() || scheme == null || !silent) {
            return result;
        }
        long deadline = clock.nanoTime() + timeout.millis() * 1_000_000;
        try {
            Socket socket = connector.connect(target.host(), target.port(), deadline, timeout);
            try {
                return !TlsConnection.spoken(socket, target.host(), tls, deadline, clock, timeout) ? result
                        : new ProbeResult(target, false, 0, failure + "; it speaks TLS: use " + scheme + "://", "",
                                result.latency(), result.addresses());
            } finally {
                Connector.close(socket);
            }
        } catch (ProbeFailure unreachable) {
            return result;
        }
    }

    /** A probe's connection, made TLS when its protocol asks: what it used is said, and its engine freed, after. */
    private final class Secured {
        private final Socket socket;
        private final String host;
        private final long deadline;
        private final Timeout timeout;
        private TlsConnection connection;

        Secured(Socket socket, String host, long deadline, Timeout timeout) {
            this.socket = socket;
            this.host = host;
            this.deadline = deadline;
            this.timeout = timeout;
        }

        TlsConnection open(TlsMode mode, String alpn) throws ProbeFailure {
            connection = TlsConnection.open(socket, host, mode, alpn, tls, deadline, clock, timeout);
            return connection;
        }

        Wire toTls(TlsMode mode, String alpn) throws ProbeFailure {
            return open(mode, alpn).wire(deadline, clock, timeout, Wire.Peer.SERVER);
        }

        String describe(String said) {
            if (connection == null) {
                return said;
            }
            String how = connection.describe();
            return said.isEmpty() ? how : said + "; " + how;
        }

        void close() {
            if (connection != null) {
                connection.close();
            }
        }
    }

    private ProbeResult answered(Target.Http target, PlainHttp.Response response, long start, List<InetAddress> addresses) {
        boolean ready = expected.matches(response.status());
        String detail = ready ? "" : "HTTP status code " + response.status() + (response.unfollowedRedirect() == null
                ? "" : " (a redirect to " + response.unfollowedRedirect() + ", not followed: "
                + (target.socket() == null ? "another host" : "off the socket") + ")")
                + (response.status() / 100 == 2 ? " (ready means " + expected + " here: see --expect-status)" : "");
        return new ProbeResult(target, ready, response.status(), detail, response.bodyLine(), since(start), addresses);
    }

    private static boolean onSocket(Target target) {
        return target instanceof Target.Http http && http.socket() != null
                || target instanceof Target.Server server && server.socket() != null;
    }

    /** A path in the pod: a file, a Unix socket, or HTTP or a server's protocol over one. No name to look up. */
    private ProbeResult local(Target target, long start, long deadline, Timeout timeout) {
        try {
            if (target instanceof Target.File file) {
                return new ProbeResult(target, true, 0, "", FilePresence.look(file.path()), since(start));
            }
            if (target instanceof Target.Http httpTarget) {
                return answered(httpTarget, http.probe(httpTarget, List.of(), deadline, timeout), start, List.of());
            }
            Path socket = target instanceof Target.Server server ? server.socket() : ((Target.Unix) target).path();
            try (SocketChannel channel = UnixSockets.connect(socket, deadline, clock, timeout)) {
                String said = target instanceof Target.Server server
                        ? server.protocol().handshake().exchange(Wire.over(channel, deadline, clock, timeout, Wire.Peer.SERVER), server)
                        : "";
                return new ProbeResult(target, true, 0, "", said, since(start));
            } catch (IOException closing) {
                throw new ProbeFailure(ProbeFailure.describe(closing));
            }
        } catch (ProbeFailure failure) {
            return new ProbeResult(target, false, 0, failure.getMessage(), "", since(start));
        }
    }

    private ProbeResult listening(Target.Listening target, long start) {
        Set<Integer> listening;
        try {
            listening = sockets.read().stream().filter(socket -> socket.state() == TcpState.LISTEN)
                    .map(TcpTableRow::localPort).collect(Collectors.toSet());
        } catch (IOException e) {
            return new ProbeResult(target, false, 0, "cannot read the socket table: " + e.getMessage(), "", since(start));
        }
        List<Integer> missing = target.ports().stream().filter(port -> !listening.contains(port)).toList();
        String detail = missing.isEmpty() ? "" : "nothing listens on port " + missing.stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + (missing.size() == target.ports().size() ? "" : " (the others are listening)");
        return new ProbeResult(target, missing.isEmpty(), 0, detail, "", since(start));
    }

    /** A host name, not an IP literal or localhost (which resolve to themselves). */
    private static boolean named(String host) {
        return Literals.parse(host) == null && !host.equalsIgnoreCase("localhost");
    }

    private Duration since(long start) {
        return Duration.ofNanos(clock.nanoTime() - start);
    }
}
