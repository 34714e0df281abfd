package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import java.net.Socket;
import java.time.Duration;

/** Probes over the network: a GET for http:// targets, a bare connect for tcp:// ones. */
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
    public ProbeResult probe(Target target, Duration timeout) {
        long start = clock.nanoTime();
        long timeoutMillis = Math.max(1, timeout.toMillis());
        try {
            if (target instanceof Target.Http httpTarget) {
                PlainHttp.Response response = http.exchange("GET", httpTarget, timeoutMillis);
                boolean ready = expected.matches(response.status());
                return new ProbeResult(target, ready, response.status(),
                        ready ? "" : "HTTP status code " + response.status(), response.bodyLine(), since(start));
            }
            Socket socket = connector.connect(target.host(), target.port(), start + timeoutMillis * 1_000_000, timeoutMillis);
            Connector.close(socket);
            return new ProbeResult(target, true, 0, "", "", since(start));
        } catch (ProbeFailure failure) {
            return new ProbeResult(target, false, 0, failure.getMessage(), "", since(start));
        }
    }

    private Duration since(long start) {
        return Duration.ofNanos(clock.nanoTime() - start);
    }
}
