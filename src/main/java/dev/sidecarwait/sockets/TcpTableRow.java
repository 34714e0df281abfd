package dev.sidecarwait.sockets;

/**
 * One line of /proc/net/tcp or /proc/net/tcp6. {@code inode} is 0 for sockets no process holds (TIME_WAIT); {@code uid}
 * is the user that opened it, -1 where unknown.
 */
public record TcpTableRow(String localAddress, int localPort, String remoteAddress, int remotePort, TcpState state,
                        long inode, int uid) {

    public TcpTableRow(String localAddress, int localPort, String remoteAddress, int remotePort, TcpState state, long inode) {
        this(localAddress, localPort, remoteAddress, remotePort, state, inode, -1);
    }

    public String local() {
        return (localAddress.contains(":") ? "[" + localAddress + "]" : localAddress) + ":" + localPort;
    }
}
