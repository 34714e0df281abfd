package dev.sidecarwait.wire;

import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * A TCP socket, unconnected, as a channel's socket. {@code new Socket()} wraps the platform's socket in the JDK's
 * SOCKS client, which asks the default proxy selector at every connect: 132 methods of the native binary (SOCKS,
 * the proxy selector, URI parsing; measured on 7e66ea1) for probes that must reach the endpoint itself, never a
 * proxy (a socksProxyHost property given to the JVM no longer reroutes them). The channel's socket connects, times
 * out and reads with SO_TIMEOUT as the plain one does, with the same exceptions; unlike it, an interrupt of the thread
 * closes it (nothing here interrupts a probe's thread).
 */
public final class TcpSocket {

    private TcpSocket() {
    }

    public static Socket open() throws IOException {
        return SocketChannel.open().socket();
    }
}
