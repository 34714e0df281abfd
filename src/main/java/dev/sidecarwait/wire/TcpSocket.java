package dev.sidecarwait.wire;

import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * A TCP socket, unconnected, as a channel's socket. {@code new Socket()} wraps the platform's socket in the JDK's
 * SOCKS client, which asks the default proxy selector at every connect: some 150 methods in the native binary
 * (SOCKS, the proxy selector, URI parsing) for a tool that never goes through a proxy. The channel's socket
 * connects, times out and reads with SO_TIMEOUT as the plain one does, with the same exceptions.
 */
public final class TcpSocket {

    private TcpSocket() {
    }

    public static Socket open() throws IOException {
        return SocketChannel.open().socket();
    }
}
