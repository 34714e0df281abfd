package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.tls.TlsConnection;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import dev.sidecarwait.wire.Wire;
import java.net.InetAddress;
import java.net.Socket;

/**
 * A TCP connection an HTTP request goes over, through TLS for https:// (verified when it was opened, for the target
 * it was opened to): each exchange reads and writes it within a deadline of its own.
 */
final class HttpConnection {

    private final Socket socket;
    private final TlsConnection tls;

    HttpConnection(Socket socket, TlsConnection tls) {
        this.socket = socket;
        this.tls = tls;
    }

    /** The address it is connected to. */
    InetAddress address() {
        return socket.getInetAddress();
    }

    Wire wire(long deadline, Clock clock, Timeout timeout) throws ProbeFailure {
        return tls != null ? tls.wire(deadline, clock, timeout, Wire.Peer.HTTP) : new Wire(socket, deadline, clock, timeout, Wire.Peer.HTTP);
    }

    void close() {
        if (tls != null) {
            tls.close();
        }
        Connector.close(socket);
    }
}
