package dev.sidecarwait.kube;

import static dev.sidecarwait.wire.FuzzedPeer.within;
import static dev.sidecarwait.wire.FuzzedPeer.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sidecarwait.probe.KubeQuery;
import dev.sidecarwait.probe.ObjectKind;
import dev.sidecarwait.wire.ProbeFailure;
import java.util.List;

/**
 * What an API server sends, through the very readers a k8s:// wait runs: a list or discovery document read and
 * judged as every kind, a refusal worded, and a watch's response (status line, headers, chunked events) read event
 * by event. Seeds in src/test/resources/.../KubeReadersFuzzTestInputs/METHOD/, each named by what sent it.
 */
class KubeReadersFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void apiAnswer(byte[] peer) {
        within(() -> {
            JsonFields document = JsonFields.of(parsed(peer));
            List<JsonFields> items = document.at("items").items();
            for (JsonFields item : items) {
                JobJudge.judge(item);
                for (ObjectKind kind : List.of(ObjectKind.DEPLOYMENT, ObjectKind.STATEFULSET, ObjectKind.DAEMONSET)) {
                    RolloutJudge.judge(kind, item);
                }
            }
            EndpointsJudge.judge(items, 2, "db");
            PodsJudge.judge(items);
            ConditionJudge.judge(items, "Ready", "True");
            ApiRefusal.of(403, peer, "list", new Resource("batch", "v1", "jobs", true), "shop", "a.b.c");
            KubeQuery other = new KubeQuery("certs.cert-manager.io", ObjectKind.OTHER, "web", null, null, "Ready", "True", 1, false);
            Resource.of(other, path -> document);
        });
    }

    @FuzzTest(maxDuration = "15s")
    void watchStream(byte[] peer) {
        within(() -> {
            ApiConnection watch = ApiConnection.head(wire(peer), null, null);
            WatchEvents events = watch.events(64 * 1024);
            for (byte[] event; (event = events.next(System.nanoTime() + 2_000_000_000L)) != null; ) {
                WatchEvent.of(parsed(event));
            }
        });
    }

    private static Object parsed(byte[] json) throws ProbeFailure {
        try {
            return JsonReader.parse(json, json.length);
        } catch (JsonReader.Malformed malformed) {
            throw new ProbeFailure(malformed.getMessage());
        }
    }
}
