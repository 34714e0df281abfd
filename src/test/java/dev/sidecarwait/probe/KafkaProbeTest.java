package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.tls.TlsSettings;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** kafka:// against a real Kafka broker (KRaft) from Kafka's own Maven Central jars, started once for these tests. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaProbeTest {

    private static RealServer kafka;
    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

    @BeforeAll
    static void startTheBroker() throws Exception {
        kafka = RealServer.kafka().start();
    }

    @AfterAll
    static void removeTheBroker() throws Exception {
        kafka.close();
    }

    private ProbeResult probe(String url) {
        return prober.probe(Target.parse(url), Timeout.of(Duration.ofSeconds(5)));
    }

    @Test
    @Order(1)
    void aBrokerThatAnswersApiVersionsIsReadyAndLogsNothingAboutIt() throws Exception {
        assertTrue(kafka.log().contains(" INFO "), "the broker logs at INFO: " + kafka.log());
        Thread.sleep(1000); // the start-up's own lines
        int before = kafka.log().length();
        for (int i = 0; i < 3; i++) {
            ProbeResult result = probe("kafka://127.0.0.1:" + kafka.port);
            assertTrue(result.ready(), result.detail() + "\n" + kafka.log());
            assertTrue(result.bodyLine().matches("Kafka broker, [0-9]{2,3} APIs"), result.bodyLine());
        }
        Thread.sleep(500);
        String during = kafka.log().substring(before);
        assertFalse(during.contains(" WARN ") || during.contains(" ERROR ") || during.contains("sidecar-wait"),
                "nothing about the probes: " + during);
    }

    @Test
    @Order(2)
    void aStoppedBrokerIsNotReady() throws Exception {
        kafka.stop();
        assertEquals("connection refused", probe("kafka://127.0.0.1:" + kafka.port).detail());
    }

    /**
     * An ApiVersions answer (v0: correlation id, error code, the API list) with error 35, UNSUPPORTED_VERSION,
     * as the protocol guide describes a broker's answer to a version it does not take.
     */
    @Test
    void anErrorCodeIsNotReady() throws Exception {
        ByteBuffer answer = ByteBuffer.allocate(4 + 4 + 2 + 4 + 6);
        answer.putInt(16).putInt(0x5ca1ab1e).putShort((short) 35).putInt(1).putShort((short) 18).putShort((short) 3)
                .putShort((short) 4);
        try (ServerProbeTest.Peer peer = ServerProbeTest.Peer.answering(answer.array())) {
            ProbeResult result = probe("kafka://127.0.0.1:" + peer.port());
            assertFalse(result.ready());
            assertEquals("Kafka refused ApiVersions: error 35 UNSUPPORTED_VERSION", result.detail());
        }
    }

    @Test
    void somethingElseIsNotTakenForKafka() throws Exception {
        try (ServerProbeTest.Peer peer = ServerProbeTest.Peer.answering("-ERR unknown command\r\n".getBytes())) {
            ProbeResult result = probe("kafka://127.0.0.1:" + peer.port());
            assertFalse(result.ready());
            assertTrue(result.detail().startsWith("answered, but not as Kafka"), result.detail());
        }
    }
}
