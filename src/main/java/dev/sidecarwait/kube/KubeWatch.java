package dev.sidecarwait.kube;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.probe.KubeQuery;
import dev.sidecarwait.probe.ObjectKind;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One k8s:// target's view of its objects, kept between attempts as client-go's reflector keeps it: one list, then
 * one watch from the list's resourceVersion, its events read at each attempt; resumed from the last version seen
 * when the server ends it, listed again on 410 Gone; a re-connection after a failure backs off (0.8 s doubling to
 * 30 s, with jitter), a 429 waits its Retry-After. The wait's schedule bounds it all: nothing is read past an
 * attempt's time, and the wait closes the watch when it ends.
 */
final class KubeWatch implements AutoCloseable {

    static final int MAX_LIST = 8 << 20;
    static final int MAX_EVENT = 4 << 20;
    private static final long FIRST_BACKOFF_MILLIS = 800;
    private static final long MAX_BACKOFF_MILLIS = 30_000;

    private final ApiServer api;
    private final KubeQuery query;
    private final String namespace;
    private final Clock clock;
    private final Resolver resolver;
    private final SplittableRandom jitter = new SplittableRandom();
    private final Map<String, JsonFields> objects = new LinkedHashMap<>();
    private Resource resource;
    private String version;
    private boolean listed;
    private ApiConnection watch;
    private WatchEvents events;
    private long retryAt;
    private int failures;
    private String lastFailure;
    /** The seconds a 429's Retry-After asked for, 0 for another refusal, until the back-off takes them (else -1). */
    private long retryAfter = -1;
    /** Whether the API server has answered a list: from then on, a failure is backed off. */
    private boolean reached;
    /** The HTTP status of the API server's refusal behind the last failure (401, 403, 404, ...), else 0. */
    private int refusal;
    /** The awaited Job's counts when a watch saw it deleted before it completed, until a Job of its name is seen again. */
    private String deletedUnfinished;

    KubeWatch(ApiServer api, KubeQuery query, Clock clock, Resolver resolver) {
        this.api = api;
        this.query = query;
        this.namespace = query.namespace() != null ? query.namespace() : api.namespace();
        this.clock = clock;
        this.resolver = resolver;
    }

    /** What the objects say now: listed if not yet, then (when {@code follow}) the watch read until {@code timeout}. */
    Verdict look(Timeout timeout, boolean follow) throws ProbeFailure {
        long now = clock.nanoTime();
        if (now - retryAt < 0) {
            throw new ProbeFailure(lastFailure); // backing off: the last words stand, and the refusal behind them
        }
        refusal = 0;
        Verdict verdict = null;
        long deadline = now + timeout.millis() * 1_000_000;
        try {
            if (resource == null) {
                resource = Resource.of(query, path -> JsonFields.of(parse(fetch(path, "get", deadline, timeout))));
            }
            if (!listed) {
                list(deadline, timeout);
            }
            verdict = judge();
            if (!follow) {
                return verdict;
            }
            if (watch == null && verdict.state() == Verdict.State.WAITING) {
                openWatch(deadline, timeout);
            }
            for (byte[] event; verdict.state() == Verdict.State.WAITING && listed && (event = events.next(deadline)) != null; ) {
                apply(WatchEvent.of(parse(event)));
                verdict = judge();
            }
            if (verdict.state() != Verdict.State.WAITING || !listed || events == null || events.ended()) {
                closeWatch(); // done, or resumed (listed again after 410) at the next attempt
            }
            failures = 0;
            return verdict;
        } catch (ProbeFailure failure) {
            closeWatch();
            // what the objects said last stays in the line: "not complete yet: ...; the watch: connection reset"
            ProbeFailure said = verdict == null ? failure : new ProbeFailure(verdict.detail() + "; the watch: " + failure.getMessage());
            backOff(said);
            throw said;
        }
    }

    private void apply(WatchEvent event) throws ProbeFailure {
        switch (event.type()) {
            case "ADDED", "MODIFIED" -> {
                if (!byName() || query.name().equals(event.name())) {
                    objects.put(event.name(), event.object());
                    deletedUnfinished = null;
                }
            }
            case "DELETED" -> {
                objects.remove(event.name());
                if (query.kind() == ObjectKind.JOB && byName() && query.name().equals(event.name())) {
                    deletedUnfinished = JobJudge.unfinished(event.object()); // its last state comes with the event
                }
            }
            case "ERROR" -> {
                if (event.object().at("code").number(0) == 410) {
                    gone();
                    return;
                }
                throw new ProbeFailure("the watch ended with an error: " + Verdict.said(event.object()));
            }
            default -> { } // BOOKMARK: only its version
        }
        seen(event.version());
    }

    private void list(long deadline, Timeout timeout) throws ProbeFailure {
        JsonFields list = JsonFields.of(parse(fetch(resource.path(namespace) + "?" + selector(), "list", deadline, timeout)));
        objects.clear();
        for (JsonFields item : list.at("items").items()) {
            String name = item.at("metadata", "name").text();
            if (name != null && (!byName() || query.name().equals(name))) {
                objects.put(name, item);
            }
        }
        seen(list.at("metadata", "resourceVersion").text());
        listed = true;
        reached = true;
    }

    private void openWatch(long deadline, Timeout timeout) throws ProbeFailure {
        long serverTimeout = 300 + jitter.nextLong(300); // as client-go's reflector: 5 to 10 minutes
        ApiConnection connection = ApiConnection.get(api, resource.path(namespace) + "?watch=1&allowWatchBookmarks=true"
                + "&resourceVersion=" + version + "&timeoutSeconds=" + serverTimeout + "&" + selector(), clock, resolver,
                deadline, timeout);
        if (connection.status == 410) {
            connection.close();
            gone();
            return;
        }
        refusedUnlessOk(connection, "watch");
        watch = connection;
        events = connection.events(MAX_EVENT);
    }

    private byte[] fetch(String path, String verb, long deadline, Timeout timeout) throws ProbeFailure {
        try (ApiConnection connection = ApiConnection.get(api, path, clock, resolver, deadline, timeout)) {
            refusedUnlessOk(connection, verb);
            return connection.body(MAX_LIST);
        }
    }

    private void refusedUnlessOk(ApiConnection connection, String verb) throws ProbeFailure {
        if (connection.status != 200) {
            retryAfter = connection.status == 429 ? Math.max(1, connection.retryAfter) : 0;
            refusal = connection.status;
            byte[] body;
            try {
                body = connection.body(64 * 1024); // the Status, for its message
            } catch (ProbeFailure unread) {
                body = new byte[0]; // the status says enough
            }
            connection.close();
            throw new ProbeFailure(ApiRefusal.of(connection.status, body, verb,
                    resource == null ? new Resource("", "v1", query.type(), true) : resource, namespace, api.token()));
        }
    }

    /**
     * When to ask again: a 429's Retry-After; at the next attempt, as any probe, while the server has not been reached
     * yet (a mesh may still be starting); else (the server refused, or a watch broke) 0.8 s doubling to 30 s, plus up
     * to as much again of jitter, as client-go's reflector backs off.
     */
    private void backOff(ProbeFailure failure) {
        long asked = retryAfter;
        retryAfter = -1;
        lastFailure = failure.getMessage();
        long now = clock.nanoTime();
        if (asked < 0 && !reached) {
            retryAt = now;
            return;
        }
        long millis = asked > 0 ? Math.min(asked, 60) * 1000 : Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(failures, 6));
        failures++;
        retryAt = now + (asked > 0 ? millis : millis + jitter.nextLong(millis)) * 1_000_000;
    }

    private Verdict judge() {
        return Judgement.of(query, objects, deletedUnfinished);
    }

    /** One object by its name; else a Service's EndpointSlices, or the objects a label selector picks. */
    private boolean byName() {
        return query.name() != null && !(query.kind() == ObjectKind.SERVICE && !query.byCondition());
    }

    private String selector() {
        return byName() ? "fieldSelector=" + QueryText.encoded("metadata.name=" + query.name())
                : "labelSelector=" + QueryText.encoded(query.name() != null ? "kubernetes.io/service-name=" + query.name()
                : query.selector());
    }

    private void seen(String resourceVersion) throws ProbeFailure {
        if (resourceVersion == null || !resourceVersion.matches("[A-Za-z0-9._~-]{1,128}")) {
            throw new ProbeFailure("the API server sent no usable resourceVersion");
        }
        version = resourceVersion;
    }

    private void gone() {
        listed = false; // 410 Gone: the version is too old to watch from; list again
    }

    private static Object parse(byte[] json) throws ProbeFailure {
        try {
            return JsonReader.parse(json, json.length);
        } catch (JsonReader.Malformed malformed) {
            throw new ProbeFailure("the API server's answer is " + malformed.getMessage());
        }
    }

    private void closeWatch() {
        if (watch != null) {
            watch.close();
        }
        watch = null;
        events = null;
    }

    /** The HTTP status of the refusal behind the last failure, 0 when it was none (a broken watch, a timeout). */
    int refusal() {
        return refusal;
    }

    @Override
    public void close() {
        closeWatch();
    }
}
