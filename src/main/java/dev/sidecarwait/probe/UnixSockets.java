package dev.sidecarwait.probe;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Polling;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Timeout;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * A connection to a Unix socket before a deadline, in plain Java (a SocketChannel of the UNIX family, the same on the
 * JVM and in the native binary). The connect does not block, so a listener whose queue is full cannot hold the probe
 * past its deadline. When it fails, what is at the path says why: nothing there yet, not a socket, nobody listening on
 * a socket file left behind, or a permission this user lacks.
 */
final class UnixSockets {

    private UnixSockets() {
    }

    static SocketChannel connect(Path path, long deadline, Clock clock, Timeout timeout) throws ProbeFailure {
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.configureBlocking(false);
            Polling polling = new Polling(clock);
            boolean connected = channel.connect(UnixDomainSocketAddress.of(path));
            while (!connected) {
                if (clock.millisUntil(deadline) <= 0) {
                    throw timeout.failure();
                }
                polling.pause(deadline);
                connected = channel.finishConnect();
            }
            return channel;
        } catch (IOException e) {
            Connector.close(channel);
            throw new ProbeFailure(why(path, e));
        } catch (InterruptedException e) {
            Connector.close(channel);
            Thread.currentThread().interrupt();
            throw timeout.failure();
        } catch (ProbeFailure | RuntimeException e) {
            Connector.close(channel);
            throw e;
        }
    }

    private static String why(Path path, IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("no such file")) {
            Path directory = path.getParent();
            return directory != null && !Files.isDirectory(directory) ? "no such socket (no directory " + directory + ")"
                    : "no such socket (nothing at " + path + " yet)";
        }
        if (message.contains("permission denied")) {
            return "permission denied (" + FilePresence.whoAmI() + " needs write permission on the socket and search "
                    + "permission on every directory on the way)";
        }
        if (e instanceof ConnectException) {
            try {
                BasicFileAttributes found = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (found.isDirectory() || found.isRegularFile()) {
                    return "not a socket (" + FilePresence.describe(found) + ")";
                }
            } catch (IOException gone) {
                // fall through: it was a socket a moment ago
            }
            return "nobody listening (connection refused: a socket file left behind by a server that is gone?)";
        }
        if (message.contains("resource temporarily unavailable")) {
            return "not accepting (the listener's queue is full)";
        }
        return ProbeFailure.describe(e);
    }
}
