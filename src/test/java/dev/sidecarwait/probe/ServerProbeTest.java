package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.servers.RealServer;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.tls.TlsSettings;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * redis://, postgres:// and mysql:// against the real servers from Debian's packages, started here on loopback
 * ports; where a state cannot be provoked on demand, a loopback peer replays the exact bytes the server sends
 * (taken from the protocol documentation, and named in each test).
 */
class ServerProbeTest {

    private final NetworkProber prober = new NetworkProber(Clock.SYSTEM, ExpectedStatus.parse("200"), TlsSettings.unused());

    private ProbeResult probe(String url) {
        return prober.probe(Target.parse(url), Timeout.of(Duration.ofSeconds(2)));
    }

    // --- Redis ---------------------------------------------------------------------------------------------

    @Test
    void redisIsReadyWhenItAnswersPongAndNotWhileStopped() throws Exception {
        try (RealServer redis = RealServer.redis()) {
            String url = "redis://127.0.0.1:" + redis.port;
            assertEquals("connection refused", probe(url).detail());
            redis.start();
            ProbeResult up = probe(url);
            assertTrue(up.ready(), up.detail());
            assertEquals("PONG", up.bodyLine());
            redis.stop();
            assertEquals("connection refused", probe(url).detail());
        }
    }

    @Test
    void redisThatWantsAPasswordIsUp() throws Exception {
        try (RealServer redis = RealServer.redis("--requirepass", "s3cret").start()) {
            ProbeResult result = probe("redis://127.0.0.1:" + redis.port);
            assertTrue(result.ready(), result.detail());
            assertTrue(result.bodyLine().startsWith("up; needs a password (NOAUTH"), result.bodyLine());
        }
    }

    @Test
    void redisLoadingItsDataSetIsNotReadyUntilLoaded() throws Exception {
        try (RealServer writer = RealServer.redis("--enable-debug-command", "yes").start()) {
            assertEquals("+OK", redisCommand(writer.port, "DEBUG POPULATE 20000"));
            assertEquals("+OK", redisCommand(writer.port, "SAVE"));
            writer.stop();
            // The same data directory, loaded at 2 ms a key (some 40 s), answering clients between 1 KiB of the file
            // (about 50 keys, so every 0.1 s); started only as far as answering, with LOADING.
            try (RealServer loading = RealServer.redis("--dir", writer.dir.toString(), "--dbfilename", "dump.rdb",
                    "--key-load-delay", "2000", "--loading-process-events-interval-bytes", "1024")
                    .start(RealServer::redisAnswers)) {
                String url = "redis://127.0.0.1:" + loading.port;
                ProbeResult early = probe(url);
                assertFalse(early.ready());
                assertEquals("Redis is still loading its data set into memory", early.detail());
                // The rest at full speed (the delay is read for each key), so the wait sees the end of the load.
                assertEquals("+OK", redisCommand(loading.port, "CONFIG SET key-load-delay 0"));
                Waiter.Outcome outcome = new Waiter(Clock.SYSTEM, prober).await(List.of(Target.parse(url)),
                        Duration.ofSeconds(60), Duration.ofMillis(100), Duration.ofSeconds(1), failed -> { });
                assertTrue(outcome.ready(), String.valueOf(outcome.unready()));
            }
        }
    }

    @Test
    void somethingElseIsNotMistakenForRedis() throws Exception {
        try (Peer peer = Peer.answering("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII))) {
            ProbeResult result = probe("redis://127.0.0.1:" + peer.port());
            assertFalse(result.ready());
            assertEquals("answered, but not as Redis: 'HTTP/1.1 400 Bad Request'", result.detail());
        }
    }

    // --- PostgreSQL ----------------------------------------------------------------------------------------

    @Test
    void postgresIsReadyWhenItAcceptsConnectionsAndNotWhileStopped() throws Exception {
        try (RealServer postgres = RealServer.postgres()) {
            String url = "postgres://127.0.0.1:" + postgres.port + "/appdb?sslmode=disable";
            assertEquals("connection refused", probe(url).detail());
            postgres.start();
            ProbeResult up = probe(url);
            assertTrue(up.ready(), up.detail());
            assertTrue(up.bodyLine().startsWith("accepts connections"), up.bodyLine());
            postgres.stop();
            assertEquals("connection refused", probe(url).detail());
        }
    }

    @Test
    void postgresOnItsUnixSocketAsLibpqSpellsItTheCloudSqlProxyWay() throws Exception {
        try (RealServer postgres = RealServer.postgres()) {
            // The server's socket directory (-k): DIRECTORY/.s.PGSQL.PORT, as the Cloud SQL Auth Proxy's --unix-socket makes
            String url = "postgres:///appdb?host=" + postgres.dir + "&port=" + postgres.port;
            assertEquals("no such socket (nothing at " + postgres.dir.resolve(".s.PGSQL." + postgres.port) + " yet)",
                    probe(url).detail());
            postgres.start();
            ProbeResult up = probe(url);
            assertTrue(up.ready(), up.detail());
            assertTrue(up.bodyLine().startsWith("accepts connections"), up.bodyLine());
            assertEquals(List.of(), up.addresses(), "no name was looked up");
            postgres.stop();
            assertFalse(probe(url).ready());
        }
    }

    @Test
    void postgresShuttingDownIsNotReady() throws Exception {
        try (RealServer postgres = RealServer.postgres().start();
             Socket session = postgresSession(postgres.port)) {
            // A smart shutdown waits for the open session and meanwhile refuses new ones with 57P03.
            assertEquals(0, postgres.runAsServerUser(List.of(RealServer.postgresBin("pg_ctl"), "stop", "-D",
                    postgres.dir.resolve("data").toString(), "-m", "smart", "--no-wait")));
            String url = "postgresql://127.0.0.1:" + postgres.port;
            ProbeResult result = probe(url);
            for (int i = 0; i < 50 && result.ready(); i++) { // the postmaster takes the signal a moment later
                Thread.sleep(100);
                result = probe(url);
            }
            assertFalse(result.ready());
            assertEquals("PostgreSQL is shutting down", result.detail());
        }
    }

    /**
     * The postmaster's answer while it starts: an ErrorResponse ('E', Int32 length, then code/string fields)
     * with SQLSTATE 57P03, as documented in PostgreSQL's "Message Formats" and "Error and Notice Message
     * Fields", with the fields the server sends (postmaster.c, ProcessStartupPacket).
     */
    @Test
    void postgresStartingUpIsNotReadyAndTheStartupMessageIsWellFormed() throws Exception {
        byte[] startingUp = postgresError("FATAL", "57P03", "the database system is starting up");
        try (Peer peer = Peer.answering(startingUp)) {
            ProbeResult result = probe("postgres://127.0.0.1:" + peer.port());
            assertFalse(result.ready());
            assertEquals("PostgreSQL is starting up", result.detail());
            DataInputStream sent = new DataInputStream(new java.io.ByteArrayInputStream(peer.received()));
            int length = sent.readInt();
            assertEquals(peer.received().length, length);
            assertEquals(196608, sent.readInt(), "protocol 3.0");
            String params = new String(peer.received(), 8, length - 8, StandardCharsets.UTF_8);
            assertTrue(params.startsWith("user\0sidecar-wait\0"), params);
            assertTrue(params.endsWith("\0\0"), params);
        }
    }

    @Test
    void postgresRefusingTheThrowawayUserIsStillReady() throws Exception {
        byte[] noSuchRole = postgresError("FATAL", "28000", "role \"sidecar-wait\" does not exist");
        try (Peer peer = Peer.answering(noSuchRole)) {
            ProbeResult result = probe("postgres://127.0.0.1:" + peer.port());
            assertTrue(result.ready(), result.detail());
            assertTrue(result.bodyLine().contains("role \"sidecar-wait\" does not exist"), result.bodyLine());
        }
    }

    // --- MySQL / MariaDB -----------------------------------------------------------------------------------

    @Test
    void mariadbIsReadyWithOrWithoutGrantTablesAndNotWhileStopped() throws Exception {
        for (boolean grants : new boolean[] {true, false}) {
            try (RealServer mariadb = RealServer.mariadb(grants)) {
                String url = "mysql://127.0.0.1:" + mariadb.port;
                assertEquals("connection refused", probe(url).detail());
                mariadb.start();
                ProbeResult up = probe(url);
                assertTrue(up.ready(), up.detail());
                assertTrue(up.bodyLine().startsWith("server ") && up.bodyLine().contains("MariaDB"), up.bodyLine());
                mariadb.stop();
                assertEquals("connection refused", probe(url).detail());
            }
        }
    }

    @Test
    void theMysqlProbeFinishesTheLoginInsteadOfBreakingTheHandshake() throws Exception {
        try (RealServer mariadb = RealServer.mariadb(false).start()) {
            long before = abortedConnections(mariadb);
            for (int i = 0; i < 3; i++) {
                assertTrue(probe("mysql://127.0.0.1:" + mariadb.port).ready());
            }
            Thread.sleep(500);
            assertEquals(before, abortedConnections(mariadb), "the probe logged in and said COM_QUIT");
            // For contrast, a bare connect that hangs up mid-handshake: the server counts and logs it.
            assertTrue(probe("tcp://127.0.0.1:" + mariadb.port).ready());
            for (int i = 0; i < 50 && abortedConnections(mariadb) == before; i++) {
                Thread.sleep(100);
            }
            assertEquals(before + 1, abortedConnections(mariadb));
        }
    }

    /** An ERR packet sent before the handshake: 0xff, the error code (little-endian), the message, no SQL state. */
    @Test
    void mysqlErrorPacketsAreNotReady() throws Exception {
        try (Peer tooMany = Peer.answering(mysqlError(1040, "Too many connections"))) {
            ProbeResult result = probe("mysql://127.0.0.1:" + tooMany.port());
            assertFalse(result.ready());
            assertEquals("MySQL refused the connection: 1040 Too many connections", result.detail());
        }
        String blocked = "Host '10.0.0.7' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'";
        try (Peer hostBlocked = Peer.answering(mysqlError(1129, blocked))) {
            assertEquals("MySQL refused the connection: 1129 " + blocked,
                    probe("mysql://127.0.0.1:" + hostBlocked.port()).detail());
        }
    }

    // --- Through a mesh proxy with no upstream -------------------------------------------------------------

    /** What Envoy's outbound listener does while the server behind it is unreachable: accept, then close. */
    @Test
    void aProxyThatAcceptsAndClosesFoolsTcpButNotTheProtocolChecks() throws Exception {
        try (Peer proxy = Peer.answering(new byte[0])) {
            String hostPort = "127.0.0.1:" + proxy.port();
            assertTrue(probe("tcp://" + hostPort).ready(), "tcp:// only proves that the proxy accepted");
            for (String scheme : List.of("redis", "postgres", "mysql", "grpc", "kafka", "amqp", "nats")) {
                ProbeResult result = probe(scheme + "://" + hostPort);
                assertFalse(result.ready(), scheme);
                assertEquals("connection closed before the server spoke (a proxy with no upstream?)", result.detail(), scheme);
            }
        }
    }

    @Test
    void aSilentPeerIsATimeoutWithinTheRequestTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            ProbeResult result = prober.probe(Target.parse("mysql://127.0.0.1:" + silent.getLocalPort()),
                    Timeout.of(Duration.ofMillis(300)));
            assertFalse(result.ready());
            assertEquals("request timed out after 300 ms", result.detail());
        }
    }

    // --- helpers -------------------------------------------------------------------------------------------

    private static String redisCommand(int port, String inline) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write((inline + "\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    /** A real session (user postgres, trust authentication) left open until closed. */
    private static Socket postgresSession(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        ByteArrayOutputStream params = new ByteArrayOutputStream();
        params.writeBytes("user\0postgres\0database\0postgres\0\0".getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(message);
        out.writeInt(8 + params.size());
        out.writeInt(196608);
        out.write(params.toByteArray());
        socket.getOutputStream().write(message.toByteArray());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        while (true) { // until ReadyForQuery
            int type = in.read();
            byte[] body = new byte[in.readInt() - 4];
            in.readFully(body);
            if (type == 'Z') {
                return socket;
            }
            if (type == 'E' || type < 0) {
                throw new IOException("no session: " + new String(body, StandardCharsets.UTF_8));
            }
        }
    }

    private static byte[] postgresError(String severity, String code, String message) {
        ByteArrayOutputStream fields = new ByteArrayOutputStream();
        for (String field : List.of("S" + severity, "V" + severity, "C" + code, "M" + message, "Fpostmaster.c",
                "L2354", "RProcessStartupPacket")) {
            fields.writeBytes(field.getBytes(StandardCharsets.UTF_8));
            fields.write(0);
        }
        fields.write(0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('E');
        int length = fields.size() + 4;
        out.writeBytes(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
        out.writeBytes(fields.toByteArray());
        return out.toByteArray();
    }

    private static byte[] mysqlError(int code, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        int length = 3 + text.length;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) length, (byte) (length >>> 8), (byte) (length >>> 16), 0});
        out.writeBytes(new byte[] {(byte) 0xff, (byte) code, (byte) (code >>> 8)});
        out.writeBytes(text);
        return out.toByteArray();
    }

    private static long abortedConnections(RealServer server) throws IOException {
        java.nio.file.Path log = server.dir.resolve("error.log");
        return Files.exists(log) ? Files.readString(log).lines().filter(line -> line.contains("Aborted connection")).count() : 0;
    }

    /** A loopback peer that, for each connection, reads what arrives for a moment, sends its bytes and closes. */
    static final class Peer implements AutoCloseable {
        private final ServerSocket server;
        private final AtomicReference<byte[]> received = new AtomicReference<>(new byte[0]);

        private Peer(byte[] answer) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
            Thread thread = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.setSoTimeout(200);
                        ByteArrayOutputStream got = new ByteArrayOutputStream();
                        byte[] buffer = new byte[4096];
                        try {
                            int n = s.getInputStream().read(buffer);
                            if (n > 0) {
                                got.write(buffer, 0, n);
                            }
                        } catch (IOException nothingSent) {
                            // a server-speaks-first protocol: the client waits for us
                        }
                        received.set(got.toByteArray());
                        OutputStream out = s.getOutputStream();
                        out.write(answer);
                        out.flush();
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "peer");
            thread.setDaemon(true);
            thread.start();
        }

        static Peer answering(byte[] answer) throws IOException {
            return new Peer(answer);
        }

        int port() {
            return server.getLocalPort();
        }

        byte[] received() {
            return received.get();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
