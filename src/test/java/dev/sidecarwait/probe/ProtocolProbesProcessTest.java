package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every protocol probe through the tool as a process, so that it runs on the native binary too: against a peer that
 * accepts each connection and closes it at once (a mesh proxy with no upstream), where a probe that writes after the
 * peer has gone must get an error, not SIGPIPE (the native build of 92498e8 exited 141 on grpc:// there, MEASURED.md),
 * and against real Redis and PostgreSQL, ready.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class ProtocolProbesProcessTest {

    private static final List<String> SCHEMES = List.of("http", "redis", "postgres", "mysql", "grpc", "kafka", "amqp", "nats");

    /** Accepts and closes at once, every connection, until closed. */
    private static ServerSocket closingAtOnce() throws IOException {
        ServerSocket peer = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread closing = new Thread(() -> {
            while (!peer.isClosed()) {
                try (Socket accepted = peer.accept()) {
                    accepted.setSoLinger(true, 0); // a reset, the harshest close
                } catch (IOException stopped) {
                    return;
                }
            }
        });
        closing.setDaemon(true);
        closing.start();
        return peer;
    }

    @Test
    void aPeerThatAcceptsAndClosesIsNotReadyForEveryProtocolAndNeverKillsTheProbe() throws Exception {
        try (ServerSocket peer = closingAtOnce()) {
            for (String scheme : SCHEMES) {
                String url = scheme + "://127.0.0.1:" + peer.getLocalPort() + (scheme.equals("http") ? "/ready" : "");
                for (int attempt = 0; attempt < 3; attempt++) {
                    SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url,
                            "--timeout", "600ms", "--period", "50ms");
                    assertEquals(1, run.exit(), url + ": not ready, and never killed by a signal (141 is SIGPIPE): " + run.err());
                    assertTrue(run.err().contains("NOT READY before the timeout"), run.err());
                }
            }
        }
    }

    @Test
    void realRedisAndPostgresAreReadyThroughTheTool() throws Exception {
        try (RealServer redis = RealServer.redis().start(); RealServer postgres = RealServer.postgres().start()) {
            SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url",
                    "redis://127.0.0.1:" + redis.port, "--url", "postgres://127.0.0.1:" + postgres.port + "/appdb",
                    "--url", "postgres:///appdb?host=" + postgres.dir + "&port=" + postgres.port, "--timeout", "20s");
            assertEquals(0, run.exit(), run.err());
            SidecarWaitProcess.Result check = SidecarWaitProcess.run(Map.of(), null, "check", "--url",
                    "redis://127.0.0.1:" + redis.port);
            assertTrue(check.out().contains("PONG"), check.out());
        }
    }
}
