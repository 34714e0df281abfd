package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.sockets.ProcNetTcp;
import dev.sidecarwait.sockets.TcpSocket;
import dev.sidecarwait.sockets.TcpState;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Probes over the network: a GET for http:// targets, a bare connect for tcp:// ones, and the server's own
 * handshake for redis://, postgres:// and mysql://; listening sockets are looked up in the socket table.
 */
public final class NetworkProber implements Prober {

    private final Clock clock;
    private final ExpectedStatus expected;
    private final PlainHttp http;
    private final Connector connector;
    private final ProcNetTcp sockets;

    public NetworkProber(Clock clock, ExpectedStatus expected) {
        this.clock = clock;
        this.expected = expected;
        this.http = new PlainHttp(clock);
        this.connector = new Connector(clock);
        this.sockets = new ProcNetTcp(Path.of("/proc"));
    }

    @Override
    public ProbeResult probe(Target target, Timeout timeout) {
        long start = clock.nanoTime();
        long deadline = start + timeout.millis() * 1_000_000;
        if (target instanceof Target.Listening listening) {
            return listening(listening, start);
        }
        try {
            if (target instanceof Target.Http httpTarget) {
                PlainHttp.Response response = http.probe(httpTarget, timeout);
                boolean ready = expected.matches(response.status());
                String detail = ready ? "" : "HTTP status code " + response.status() + (response.unfollowedRedirect() == null
                        ? "" : " (a redirect to " + response.unfollowedRedirect() + ", not followed: another host)");
                return new ProbeResult(target, ready, response.status(), detail, response.bodyLine(), since(start));
            }
            Socket socket = connector.connect(target.host(), target.port(), deadline, timeout);
            try {
                String said = target instanceof Target.Server server
                        ? server.protocol().handshake().exchange(new Wire(socket, deadline, clock, timeout, Wire.Peer.SERVER), server)
                        : "";
                return new ProbeResult(target, true, 0, "", said, since(start));
            } finally {
                Connector.close(socket);
            }
        } catch (ProbeFailure failure) {
            return new ProbeResult(target, false, 0, failure.getMessage(), "", since(start));
        }
    }

    private ProbeResult listening(Target.Listening target, long start) {
        Set<Integer> listening;
        try {
            listening = sockets.read().stream().filter(socket -> socket.state() == TcpState.LISTEN)
                    .map(TcpSocket::localPort).collect(Collectors.toSet());
        } catch (IOException e) {
            return new ProbeResult(target, false, 0, "cannot read the socket table: " + e.getMessage(), "", since(start));
        }
        List<Integer> missing = target.ports().stream().filter(port -> !listening.contains(port)).toList();
        String detail = missing.isEmpty() ? "" : "nothing listens on port " + missing.stream().map(String::valueOf)
                .collect(Collectors.joining(", ")) + (missing.size() == target.ports().size() ? "" : " (the others are listening)");
        return new ProbeResult(target, missing.isEmpty(), 0, detail, "", since(start));
    }

    private Duration since(long start) {
        return Duration.ofNanos(clock.nanoTime() - start);
    }
}
