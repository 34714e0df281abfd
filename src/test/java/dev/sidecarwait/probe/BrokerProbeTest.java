package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.tls.TlsSettings;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nats:// and amqp:// against Debian's nats-server and rabbitmq-server, started here on loopback ports; what a
 * server only says in a state that cannot be provoked here is replayed with its exact bytes (named in the test).
 */
class BrokerProbeTest {

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

    private ProbeResult probe(String url) {
        return prober.probe(Target.parse(url), Timeout.of(Duration.ofSeconds(2)));
    }

    // --- NATS ------------------------------------------------------------------------------------------------

    @Test
    void natsIsReadyWhenItAnswersPongAndNotWhileStopped() throws Exception {
        try (RealServer nats = RealServer.nats()) {
            String url = "nats://127.0.0.1:" + nats.port;
            assertEquals("connection refused", probe(url).detail());
            nats.start();
            ProbeResult up = probe(url);
            assertTrue(up.ready(), up.detail());
            assertTrue(up.bodyLine().matches("NATS 2\\.[0-9.]+, PONG"), up.bodyLine());
            nats.stop();
            assertEquals("connection refused", probe(url).detail());
        }
    }

    /** Up, and quietly: nothing is sent to a server whose INFO asks for credentials, so it logs no error. */
    @Test
    void natsThatWantsCredentialsIsUpAndLogsNothingAboutIt() throws Exception {
        try (RealServer nats = RealServer.nats("--user", "app", "--pass", "s3cret").start()) {
            for (int i = 0; i < 3; i++) {
                ProbeResult result = probe("nats://127.0.0.1:" + nats.port);
                assertTrue(result.ready(), result.detail());
                assertTrue(result.bodyLine().endsWith("up; needs credentials (auth_required)"), result.bodyLine());
            }
            Thread.sleep(300);
            assertFalse(nats.log().contains("[ERR]"), nats.log());
        }
    }

    @Test
    void natsAtItsConnectionLimitIsNotReady(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("nats.conf"), "max_connections: 1\n");
        try (RealServer nats = RealServer.nats("-c", config.toString()).start();
             Socket first = theOneConnection(nats.port)) {
            ProbeResult result = probe("nats://127.0.0.1:" + nats.port);
            assertFalse(result.ready(), result.bodyLine());
            assertTrue(result.detail().toLowerCase(java.util.Locale.ROOT).contains("maximum connections exceeded"),
                    result.detail());
        }
    }

    /** A connection that holds a server's only slot (the start's health check uses the monitoring port, not a slot). */
    private static Socket theOneConnection(int port) throws Exception {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5000);
        readLine(socket.getInputStream()); // INFO
        socket.getOutputStream().write("CONNECT {\"verbose\":false}\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
        String answer = readLine(socket.getInputStream());
        if (!answer.startsWith("PONG")) {
            socket.close();
            throw new AssertionError("the one connection did not get the server's one slot: " + answer);
        }
        return socket;
    }

    /** A server in lame duck mode sends "ldm":true in its INFO (nats-server's server.go, sendLDMToClients). */
    @Test
    void natsInLameDuckModeIsNotReady() throws Exception {
        String info = "INFO {\"server_id\":\"NDAQ\",\"version\":\"2.10.22\",\"proto\":1,\"max_payload\":1048576,"
                + "\"ldm\":true}\r\n";
        try (ServerProbeTest.Peer peer = ServerProbeTest.Peer.answering(info.getBytes(StandardCharsets.US_ASCII))) {
            assertEquals("NATS 2.10.22 is in lame duck mode (shutting down)", probe("nats://127.0.0.1:" + peer.port()).detail());
        }
    }

    // --- RabbitMQ (AMQP 0-9-1) --------------------------------------------------------------------------------

    @Test
    void rabbitmqIsReadyWhenItStartsTheConnectionAndNotWhileStopped() throws Exception {
        try (RealServer rabbitmq = RealServer.rabbitmq()) {
            String url = "amqp://127.0.0.1:" + rabbitmq.port + "/orders";
            assertEquals("connection refused", probe(url).detail());
            rabbitmq.start();
            ProbeResult up = probe(url);
            assertTrue(up.ready(), up.detail());
            assertTrue(up.bodyLine().matches("Connection\\.Start from RabbitMQ [0-9.]+"), up.bodyLine());
            rabbitmq.stop();
            assertEquals("connection refused", probe(url).detail());
            // What RabbitMQ logs for each probe: AMQP 0-9-1 has no quieter way out before a login (README).
            assertTrue(rabbitmq.log().contains("client unexpectedly closed TCP connection"), rabbitmq.log());
        }
    }

    /**
     * A server that does not speak 0-9-1 answers the header with its own and closes (AMQP 0-9-1, section 4.2.2):
     * here AMQP 1.0's, "AMQP" 0 1 0 0, as a broker speaking only AMQP 1.0 (ActiveMQ Artemis, Azure Service Bus) sends.
     */
    @Test
    void aServerOfAnotherAmqpIsNotReady() throws Exception {
        try (ServerProbeTest.Peer peer = ServerProbeTest.Peer.answering(new byte[] {'A', 'M', 'Q', 'P', 0, 1, 0, 0})) {
            ProbeResult result = probe("amqp://127.0.0.1:" + peer.port());
            assertFalse(result.ready());
            assertEquals("the server speaks another AMQP (it answered with protocol header 0-1-0-0, not 0-9-1)", result.detail());
            assertEquals("AMQP\0\0\u0009\u0001", new String(peer.received(), StandardCharsets.ISO_8859_1));
        }
    }

    private static String readLine(InputStream in) throws Exception {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString();
    }
}
