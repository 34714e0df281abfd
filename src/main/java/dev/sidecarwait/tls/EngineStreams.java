package dev.sidecarwait.tls;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Streams;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A TLS engine's records moved to and from its socket: the application's bytes as streams, and the records the engine
 * has to send written out. Every read of the socket ends by the one deadline {@link #within} set, however many reads
 * a record takes: a server that sends a byte at a time gains nothing by it.
 */
final class EngineStreams {

    private final TlsEngine engine;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buffer = new byte[16384];
    private final boolean sentCertificate;
    private final Clock clock;
    private long readDeadline;

    EngineStreams(TlsEngine engine, Socket socket, Clock clock, boolean sentCertificate) throws IOException {
        this.engine = engine;
        this.socket = socket;
        this.clock = clock;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.sentCertificate = sentCertificate;
        this.readDeadline = clock.nanoTime();
    }

    /** From now on, reads end within {@code millis} (the Wire gives each of its reads what is left of the exchange). */
    void within(int millis) {
        readDeadline = clock.nanoTime() + millis * 1_000_000L;
    }

    /** Up to a buffer of the server's bytes, before the read deadline: how many, or -1 at its end. */
    int receive() throws IOException {
        long left = clock.millisUntil(readDeadline);
        if (left <= 0) {
            throw new SocketTimeoutException("read timed out");
        }
        socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
        return in.read(buffer);
    }

    /** What {@link #receive} got, handed to the engine. */
    void feed(int n) throws TlsException {
        engine.feed(buffer, n);
    }

    /** The first bytes {@link #receive} got, as a line of text for a message. */
    String firstLine(int n) {
        String text = new String(buffer, 0, Math.min(n, 80), StandardCharsets.ISO_8859_1);
        int end = text.indexOf('\n');
        return ProbeFailure.abbreviate((end < 0 ? text : text.substring(0, end)).strip().replaceAll("[^\\x20-\\x7e]", "?"));
    }

    byte firstByte() {
        return buffer[0];
    }

    /** The server's alert, as the failure line says it. */
    String alert(TlsException e) {
        return TlsFailures.alert(e.alert(), sentCertificate);
    }

    void flush() throws TlsException, IOException {
        int n;
        while ((n = engine.take(buffer)) > 0) {
            out.write(buffer, 0, n);
        }
        out.flush();
    }

    /** A failing engine's last records (its alert), if the socket still takes them. */
    void flushQuietly() {
        try {
            flush();
        } catch (TlsException | IOException ignored) {
            // the failure being reported says more
        }
    }

    /**
     * A TLS 1.3 server that refuses the client (no certificate, say) sends its alert and closes once the client's
     * handshake is done; a write after that meets the reset. TlsConnection waits for that alert when the server asked
     * for a certificate; a server slower than that wait may still have left it in the socket's queue.
     */
    private String alertReceived() {
        try {
            within(10);
            int n = receive();
            if (n > 0) {
                engine.feed(buffer, n);
                engine.read(new byte[1], 0, 1);
            }
        } catch (TlsException e) {
            return e.alert() >= 0 ? alert(e) : null;
        } catch (IOException nothingLeft) {
            // the reset is all there is
        }
        return null;
    }

    InputStream input() {
        return Streams.input(this::readApplication);
    }

    OutputStream output() {
        return Streams.output(this::writeApplication);
    }

    /** Application bytes, the socket read (within its timeout, which the Wire arms) whenever the engine needs more. */
    private int readApplication(byte[] bytes, int offset, int length) throws IOException {
        try {
            while (true) {
                int n = engine.read(bytes, offset, length);
                if (n > 0 || n == -1) {
                    return n;
                }
                if (n == 0) {
                    continue; // a record with no application bytes (a ticket, a key update)
                }
                flush();
                int got = receive();
                if (got < 0) {
                    return -1;
                }
                engine.feed(buffer, got);
            }
        } catch (TlsException e) {
            throw new ProbeFailure.Worded(e.alert() >= 0 ? alert(e) : "TLS: " + e.getMessage());
        }
    }

    private void writeApplication(byte[] bytes, int offset, int length) throws IOException {
        try {
            engine.write(bytes, offset, length);
            flush();
        } catch (TlsException e) {
            throw new ProbeFailure.Worded("TLS: " + e.getMessage());
        } catch (IOException e) {
            String alert = alertReceived();
            throw alert == null ? e : new ProbeFailure.Worded(alert);
        }
    }
}
