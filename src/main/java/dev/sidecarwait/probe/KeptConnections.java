package dev.sidecarwait.probe;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The connections a wait keeps between a target's attempts, as pilot-agent's Go client does: one per target, taken by
 * its next attempt only while the target's name still resolves to the address it is connected to. Each target is
 * probed by one thread at a time; the lock is for {@link #closeAll}, which the end of a wait calls from another.
 */
final class KeptConnections {

    private final Map<Target.Http, HttpConnection> kept = new HashMap<>();
    private boolean closed;

    /** The target's kept connection, now the caller's; null when there is none to one of {@code addresses}. */
    synchronized HttpConnection take(Target.Http target, List<InetAddress> addresses) {
        HttpConnection connection = kept.remove(target);
        if (connection != null && !addresses.contains(connection.address())) {
            connection.close();
            return null;
        }
        return connection;
    }

    /** Keeps {@code connection} for the target's next attempt; once the wait is over, closes it instead. */
    synchronized void keep(Target.Http target, HttpConnection connection) {
        HttpConnection before = closed ? connection : kept.put(target, connection);
        if (before != null) {
            before.close();
        }
    }

    /** The wait is over: no connection is left open for the command it hands over to. */
    synchronized void closeAll() {
        closed = true;
        kept.values().forEach(HttpConnection::close);
        kept.clear();
    }
}
