package dev.sidecarwait.kube;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Prober;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.wire.PeerText;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * k8s:// targets asked of the API server, each through its own {@link KubeWatch} kept between attempts (a wait), or
 * listed once at each look ({@code follow} false: check); every other target goes to {@code others}. The watches
 * are closed when the wait is {@link #finished}.
 */
public final class KubeProber implements Prober {

    private final Prober others;
    private final ApiServer api;
    private final Clock clock;
    private final Resolver resolver;
    private final boolean follow;
    private final Map<Target.Kube, KubeWatch> watches = new ConcurrentHashMap<>();

    public KubeProber(Prober others, ApiServer api, Clock clock, Resolver resolver, boolean follow) {
        this.others = others;
        this.api = api;
        this.clock = clock;
        this.resolver = resolver;
        this.follow = follow;
    }

    @Override
    public ProbeResult probe(Target target, Timeout timeout) {
        if (!(target instanceof Target.Kube kube)) {
            return others.probe(target, timeout);
        }
        long start = clock.nanoTime();
        KubeWatch watch = watches.computeIfAbsent(kube, k -> new KubeWatch(api, k.query(), clock, resolver));
        try {
            Verdict verdict = watch.look(timeout, follow);
            boolean ready = verdict.state() == Verdict.State.READY;
            return new ProbeResult(target, ready, 0, ready ? "" : verdict.detail(), ready ? verdict.detail() : "",
                    since(start), List.of(), verdict.state() == Verdict.State.FAILED ? ProbeResult.Standing.FOR_GOOD
                    : ProbeResult.Standing.MAY_PASS);
        } catch (ProbeFailure failure) {
            return new ProbeResult(target, false, 0, failure.getMessage(), "", since(start), List.of(),
                    ApiRefusal.lasting(watch.refusal()) ? ProbeResult.Standing.LASTING : ProbeResult.Standing.MAY_PASS);
        } catch (RuntimeException unexpected) {
            watch.close();
            watches.remove(kube);
            return new ProbeResult(target, false, 0, "an answer this probe could not read ("
                    + PeerText.shown(String.valueOf(unexpected), 120) + ")", "", since(start));
        }
    }

    private Duration since(long start) {
        return Duration.ofNanos(clock.nanoTime() - start);
    }

    @Override
    public void finished() {
        watches.values().forEach(KubeWatch::close);
        others.finished();
    }
}
