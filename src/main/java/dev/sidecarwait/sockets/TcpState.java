package dev.sidecarwait.sockets;

/** The kernel's TCP states, by the hex code /proc/net/tcp shows in its "st" column (include/net/tcp_states.h). */
public enum TcpState {
    ESTABLISHED, SYN_SENT, SYN_RECV, FIN_WAIT1, FIN_WAIT2, TIME_WAIT, CLOSE, CLOSE_WAIT, LAST_ACK, LISTEN, CLOSING,
    NEW_SYN_RECV, UNKNOWN;

    static TcpState ofCode(int code) {
        TcpState[] states = values();
        return code >= 1 && code <= NEW_SYN_RECV.ordinal() + 1 ? states[code - 1] : UNKNOWN;
    }
}
