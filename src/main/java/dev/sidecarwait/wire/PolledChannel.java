package dev.sidecarwait.wire;

import dev.sidecarwait.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams over a connected channel that never blocks (a Unix socket's: a SocketChannel of that family has no socket
 * adaptor, so no timed read), read and written with {@link Polling} until the time {@link #within} armed runs out.
 */
final class PolledChannel {

    private final SocketChannel channel;
    private final Clock clock;
    private final Polling polling;
    private long until;

    PolledChannel(SocketChannel channel, Clock clock, long deadlineNanos) throws IOException {
        this.channel = channel;
        this.clock = clock;
        this.polling = new Polling(clock);
        this.until = deadlineNanos;
        channel.configureBlocking(false);
    }

    /** Reads and writes from now on end within {@code millis}. */
    void within(int millis) {
        until = clock.nanoTime() + millis * 1_000_000L;
    }

    InputStream input() {
        return Streams.input((bytes, offset, length) -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            int n;
            while ((n = channel.read(buffer)) == 0) {
                pause();
            }
            polling.reset();
            return n;
        });
    }

    OutputStream output() {
        return Streams.output((bytes, offset, length) -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    pause();
                }
            }
            polling.reset();
        });
    }

    private void pause() throws IOException {
        if (clock.millisUntil(until) <= 0) {
            throw new SocketTimeoutException("timed out");
        }
        try {
            polling.pause(until);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }
}
