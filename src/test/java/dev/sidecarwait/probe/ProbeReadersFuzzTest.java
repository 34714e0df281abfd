package dev.sidecarwait.probe;

import static dev.sidecarwait.wire.FuzzedPeer.within;
import static dev.sidecarwait.wire.FuzzedPeer.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sidecarwait.wire.FuzzedPeer;
import java.nio.charset.StandardCharsets;

/**
 * Every reader of what a peer sends, fed hostile bytes through the very code a probe runs, with the property
 * every reader of a peer's bytes holds to ({@link FuzzedPeer}); gRPC's readers are in grpc/GrpcReadersFuzzTest.
 * Seeds: the bytes real servers sent to these probes (each file names its server), in
 * src/test/resources/.../ProbeReadersFuzzTestInputs/METHOD/. `mvn verify` runs each target over its seeds and
 * every input that ever failed; scripts/fuzz.sh fuzzes them.
 */
class ProbeReadersFuzzTest {

    private static void exchange(Handshake handshake, String url, byte[] peer) {
        Target.Server target = (Target.Server) Target.parse(url);
        within(() -> handshake.exchange(wire(peer), target));
    }

    @FuzzTest(maxDuration = "15s")
    void redisAnswer(byte[] peer) {
        exchange(new RedisPing(), "redis://cache:6379", peer);
    }

    @FuzzTest(maxDuration = "15s")
    void postgresAnswer(byte[] peer) {
        exchange(new PostgresStartup(), "postgres://db:5432", peer);
    }

    @FuzzTest(maxDuration = "15s")
    void mysqlAnswer(byte[] peer) {
        exchange(new MysqlHandshake(), "mysql://db:3306", peer);
    }

    @FuzzTest(maxDuration = "15s")
    void kafkaAnswer(byte[] peer) {
        exchange(new KafkaApiVersions(), "kafka://broker:9092", peer);
    }

    @FuzzTest(maxDuration = "15s")
    void amqpAnswer(byte[] peer) {
        exchange(new AmqpHandshake(), "amqp://rabbit:5672", peer);
    }

    @FuzzTest(maxDuration = "15s")
    void natsAnswer(byte[] peer) {
        exchange(new NatsPing(), "nats://nats:4222", peer);
    }

    /** A readiness answer, glanced at as a probe does and read whole as the admin API's are; and where it redirects. */
    @FuzzTest(maxDuration = "15s")
    void httpAnswer(byte[] peer) {
        Target.Http from = (Target.Http) Target.parse("http://localhost:15020/healthz/ready");
        within(() -> {
            HttpResponse glanced = HttpResponse.read(wire(peer), "GET", false, PlainHttp.PEEK_BYTES);
            if (glanced.location() != null) {
                PlainHttp.redirectTarget(from, glanced.location());
            }
        });
        within(() -> HttpResponse.read(wire(peer), "GET", true, 256 * 1024));
        within(() -> HttpResponse.read(wire(peer), "POST", false, PlainHttp.PEEK_BYTES));
    }

    /** What a user or an environment variable gives as a target, and a Location header resolved against one. */
    @FuzzTest(maxDuration = "15s")
    void targetUrl(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            Target target = Target.parse(text);
            if (target instanceof Target.InPod inPod) {
                java.nio.file.Path path = inPod.path();
                if (!path.isAbsolute() || path.getNameCount() == 0) {
                    throw new AssertionError("accepted a path in the pod that is not absolute: " + target);
                }
            } else {
                usableHostAndPort(target);
            }
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal that says nothing");
            }
        }
        PlainHttp.redirectTarget((Target.Http) Target.parse("http://localhost:15020/healthz/ready"), text);
    }

    private static void usableHostAndPort(Target target) {
        java.nio.file.Path socket = target instanceof Target.Http http ? http.socket()
                : target instanceof Target.Server server ? server.socket() : null;
        if (socket != null && (!socket.isAbsolute() || socket.getNameCount() == 0)) {
            throw new AssertionError("accepted a socket that is not an absolute path: " + target);
        }
        if (target instanceof Target.Kube kube) { // an object of the cluster: no host of its own
            if (kube.query().type().isEmpty() || kube.query().name() == null && kube.query().selector() == null) {
                throw new AssertionError("accepted a k8s:// target that names no object: " + target);
            }
            return;
        }
        // dns:// names a host and nothing else: it has no port
        boolean portless = target instanceof Target.Dns;
        if (!portless && (target.port() < 1 || target.port() > 65535) || target.host().isEmpty()) {
            throw new AssertionError("accepted a target without a usable host and port: " + target);
        }
    }

    /** Which statuses count as ready: a code, a list, ranges. */
    @FuzzTest(maxDuration = "15s")
    void expectedStatus(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            ExpectedStatus status = ExpectedStatus.parse(text);
            for (int code = 100; code <= 599; code++) {
                status.matches(code);
            }
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal that says nothing");
            }
        }
    }
}
