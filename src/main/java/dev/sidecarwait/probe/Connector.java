package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.dns.Resolver;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.TcpSocket;
import dev.sidecarwait.wire.Timeout;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;

/** Opens a TCP connection before a deadline, trying each address of the host in turn. */
public final class Connector {

    static final String SELF_CONNECTED = "nothing listens (the kernel connected the socket to itself)";

    private final Clock clock;
    private final Resolver resolver;

    public Connector(Clock clock, Resolver resolver) {
        this.clock = clock;
        this.resolver = resolver;
    }

    /** The host's addresses, looked up afresh through the pod's DNS (dns/Resolver) before {@code deadlineNanos}. */
    public List<InetAddress> addresses(String host, long deadlineNanos) throws ProbeFailure {
        return resolver.resolve(host, deadlineNanos);
    }

    public Socket connect(String host, int port, long deadlineNanos, Timeout timeout) throws ProbeFailure {
        return connect(addresses(host, deadlineNanos), port, deadlineNanos, timeout);
    }

    /**
     * Connects to port on the first address that accepts, spending at most what is left until {@code deadlineNanos}.
     * A refused address is followed by the next one; the first failure is the one reported.
     */
    public Socket connect(List<InetAddress> addresses, int port, long deadlineNanos, Timeout timeout) throws ProbeFailure {
        ProbeFailure first = null;
        for (InetAddress address : addresses) {
            long leftMillis = clock.millisUntil(deadlineNanos);
            if (leftMillis <= 0) {
                throw timeout.failure();
            }
            Socket socket = null; // opening takes a descriptor, and can fail for want of one
            try {
                socket = TcpSocket.open();
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(address, port), (int) Math.min(leftMillis, Integer.MAX_VALUE));
                if (socket.getLocalSocketAddress().equals(socket.getRemoteSocketAddress())) {
                    // Where nothing listens on a port of the kernel's ephemeral range, Linux may give the socket that
                    // very port as its own end: TCP's simultaneous open then connects it to itself, and it reads back
                    // what it writes (Go's net/tcpsock_posix.go, selfConnect, checks for this too).
                    close(socket);
                    if (first == null) {
                        first = new ProbeFailure(SELF_CONNECTED);
                    }
                    continue;
                }
                return socket;
            } catch (SocketTimeoutException e) {
                close(socket);
                throw timeout.failure();
            } catch (IOException e) {
                close(socket);
                if (first == null) {
                    first = new ProbeFailure(ProbeFailure.describe(e));
                }
            }
        }
        if (first == null) {
            throw timeout.failure(); // the lookup itself used the whole deadline
        }
        throw first;
    }

    /** Closes a socket or channel being abandoned (or not yet opened: null). */
    static void close(Closeable connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (IOException ignored) {
            // nothing left to do with a connection we are abandoning
        }
    }
}
