package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;

/** Opens a TCP connection before a deadline, trying each address of the host in turn. */
public final class Connector {

    private static final byte[] IPV4_LOOPBACK = {127, 0, 0, 1};
    private static final byte[] IPV6_LOOPBACK = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

    private final Clock clock;

    public Connector(Clock clock) {
        this.clock = clock;
    }

    /**
     * Connects to host:port, spending at most what is left until {@code deadlineNanos}. A refused address is
     * followed by the next one; the first failure is the one reported.
     */
    public Socket connect(String host, int port, long deadlineNanos, Timeout timeout) throws ProbeFailure {
        ProbeFailure first = null;
        for (InetAddress address : addresses(host)) {
            long leftMillis = clock.millisUntil(deadlineNanos);
            if (leftMillis <= 0) {
                throw timeout.failure();
            }
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(address, port), (int) Math.min(leftMillis, Integer.MAX_VALUE));
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
        throw first != null ? first : new ProbeFailure("no address for host '" + host + "'");
    }

    /**
     * "localhost" means both loopback addresses, whatever /etc/hosts says: a proxy may listen on 127.0.0.1 or
     * on ::1, and a name lookup would cost time (and a resolver) for nothing.
     */
    static List<InetAddress> addresses(String host) throws ProbeFailure {
        try {
            if (host.equalsIgnoreCase("localhost")) {
                return List.of(InetAddress.getByAddress("localhost", IPV4_LOOPBACK),
                        Inet6Address.getByAddress("localhost", IPV6_LOOPBACK));
            }
            return List.of(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            throw new ProbeFailure("unknown host '" + host + "'");
        }
    }

    static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do with a socket we are abandoning
        }
    }
}
