package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import java.net.Socket;
import java.time.Duration;

/**
 * Probes over the network: a GET for http:// targets, a bare connect for tcp:// ones, and the server's own
 * handshake for redis://, postgres:// and mysql://.
 */
public final class NetworkProber implements Prober {

    private final Clock clock;
    private final ExpectedStatus expected;
    private final PlainHttp http;
    private final Connector connector;

    public NetworkProber(Clock clock, ExpectedStatus expected) {
        this.clock = clock;
        this.expected = expected;
        this.http = new PlainHttp(clock);
        this.connector = new Connector(clock);
    }

    @Override
    public ProbeResult probe(Target target, Timeout timeout) {
        long start = clock.nanoTime();
        long deadline = start + timeout.millis() * 1_000_000;
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

    private Duration since(long start) {
        return Duration.ofNanos(clock.nanoTime() - start);
    }
}
