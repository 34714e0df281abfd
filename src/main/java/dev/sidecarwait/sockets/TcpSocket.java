package dev.sidecarwait.sockets;

/** One line of /proc/net/tcp or /proc/net/tcp6. {@code inode} is 0 for sockets no process holds (TIME_WAIT). */
public record TcpSocket(String localAddress, int localPort, String remoteAddress, int remotePort, TcpState state,
                        long inode) {

    public String local() {
        return (localAddress.contains(":") ? "[" + localAddress + "]" : localAddress) + ":" + localPort;
    }
}
