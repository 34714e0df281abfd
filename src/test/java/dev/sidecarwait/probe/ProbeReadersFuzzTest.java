package dev.sidecarwait.probe;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sidecarwait.Clock;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Every reader of what a peer sends, fed hostile bytes through the very code a probe runs: a {@link Wire} over
 * the bytes (served in pieces, as a socket delivers them), with its deadline and every size cap. The property,
 * for every input: an answer, or a {@link ProbeFailure} worded for a log line; never another exception (an
 * unchecked one, or the Wire's guard against a length a peer sent going uncapped), never longer than the
 * deadline. Seeds: the bytes real servers sent to these probes (each file names its server), in
 * src/test/resources/.../ProbeReadersFuzzTestInputs/METHOD/. `mvn verify` runs each target over its seeds and
 * every input that ever failed; scripts/fuzz.sh fuzzes them.
 */
class ProbeReadersFuzzTest {

    private static final long DEADLINE_MILLIS = 2000;

    /** The peer's bytes in pieces of 1 to 64 bytes, chosen from the input itself so that a seed stays as it is. */
    private static Wire wire(byte[] peer) {
        int piece = 1 + (Arrays.hashCode(peer) & 63);
        InputStream in = new ByteArrayInputStream(peer) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, piece));
            }
        };
        return new Wire(in, OutputStream.nullOutputStream(), System.nanoTime() + DEADLINE_MILLIS * 1_000_000,
                Clock.SYSTEM, new Timeout(DEADLINE_MILLIS, false), Wire.Peer.SERVER);
    }

    private interface Reading {
        void read() throws ProbeFailure;
    }

    /** A failure worded for the log is a result; anything else thrown is a finding; so is overrunning the deadline. */
    private static void within(Reading reading) {
        long start = System.nanoTime();
        try {
            reading.read();
        } catch (ProbeFailure expected) {
            if (expected.getMessage() == null || expected.getMessage().isBlank()) {
                throw new AssertionError("a failure that says nothing");
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (millis > DEADLINE_MILLIS + 1000) {
            throw new AssertionError("the read took " + millis + " ms, past its " + DEADLINE_MILLIS + " ms deadline");
        }
    }

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
    void grpcAnswer(byte[] peer) {
        exchange(new GrpcHealthCheck(), "grpc://orders:50051", peer);
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
            PlainHttp.Exchange glanced = PlainHttp.read(wire(peer), "GET", false, PlainHttp.PEEK_BYTES);
            if (glanced.location() != null) {
                PlainHttp.redirectTarget(from, glanced.location());
            }
        });
        within(() -> PlainHttp.read(wire(peer), "GET", true, 256 * 1024));
        within(() -> PlainHttp.read(wire(peer), "POST", false, PlainHttp.PEEK_BYTES));
    }

    /** HPACK on its own, faster than through HTTP/2 frames: header blocks, and Huffman strings. */
    @FuzzTest(maxDuration = "15s")
    void hpackBlock(byte[] block) {
        within(() -> new Hpack().decode(block));
        within(() -> HpackHuffman.decode(block, 0, block.length));
    }

    /** What a user or an environment variable gives as a target, and a Location header resolved against one. */
    @FuzzTest(maxDuration = "15s")
    void targetUrl(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            Target target = Target.parse(text);
            if (target.port() < 1 || target.port() > 65535 || target.host().isEmpty()) {
                throw new AssertionError("accepted a target without a usable host and port: " + target);
            }
        } catch (IllegalArgumentException refused) {
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal that says nothing");
            }
        }
        PlainHttp.redirectTarget((Target.Http) Target.parse("http://localhost:15020/healthz/ready"), text);
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
