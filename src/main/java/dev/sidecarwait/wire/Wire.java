package dev.sidecarwait.wire;

import dev.sidecarwait.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;

/**
 * One connection's bytes, inside one deadline: every read re-arms the socket timeout with what is left, so no
 * exchange outlives it. A connection that ends before the peer has said anything is reported as such: it is
 * what a mesh proxy with no upstream does (accept, then close).
 */
public final class Wire {

    /** How a server that never spoke is described: an HTTP endpoint, or a server behind the mesh. */
    public enum Peer {
        HTTP("connection closed before a response", "connection reset"),
        SERVER("connection closed before the server spoke (a proxy with no upstream?)",
                "connection reset before the server spoke (a proxy with no upstream?)");

        public final String closedSilent;
        public final String resetSilent;

        Peer(String closedSilent, String resetSilent) {
            this.closedSilent = closedSilent;
            this.resetSilent = resetSilent;
        }
    }

    /** How a connection that ended after the peer began to answer is described. */
    public static final String CLOSED_MID_RESPONSE = "connection closed mid-response";

    /** Arms the carrier's read timeout before each read. */
    public interface ReadTimeout {
        void within(int millis) throws IOException;
    }

    private final ReadTimeout readTimeout;
    private final InputStream in;
    private final OutputStream out;
    private long deadline;
    private final Clock clock;
    private final Timeout timeout;
    private final Peer peer;
    private final byte[] buffer = new byte[4096];
    private int start;
    private int end;
    private long received;
    private boolean ended;

    public Wire(Socket socket, long deadline, Clock clock, Timeout timeout, Peer peer) throws ProbeFailure {
        this(socket::setSoTimeout, input(socket), output(socket), deadline, clock, timeout, peer);
    }

    /** Over a connected Unix socket's channel, read and written without blocking ({@link PolledChannel}). */
    public static Wire over(SocketChannel channel, long deadline, Clock clock, Timeout timeout, Peer peer) throws ProbeFailure {
        try {
            PolledChannel polled = new PolledChannel(channel, clock, deadline);
            return new Wire(polled::within, polled.input(), polled.output(), deadline, clock, timeout, peer);
        } catch (IOException e) {
            throw new ProbeFailure(ProbeFailure.describe(e));
        }
    }

    /**
     * Over streams that never block (a peer's bytes in memory), for tests and fuzzing: the same reading code, the
     * same caps and the same deadline as over a socket.
     */
    public Wire(InputStream in, OutputStream out, long deadline, Clock clock, Timeout timeout, Peer peer) {
        this(null, in, out, deadline, clock, timeout, peer);
    }

    /** Over streams that read within the time {@code readTimeout} arms (a TLS connection's, over its socket). */
    public Wire(ReadTimeout readTimeout, InputStream in, OutputStream out, long deadline, Clock clock, Timeout timeout,
                 Peer peer) {
        this.readTimeout = readTimeout;
        this.in = in;
        this.out = out;
        this.peer = peer;
        this.deadline = deadline;
        this.clock = clock;
        this.timeout = timeout;
    }

    private static InputStream input(Socket socket) throws ProbeFailure {
        try {
            return socket.getInputStream();
        } catch (IOException e) {
            throw new ProbeFailure(ProbeFailure.describe(e));
        }
    }

    private static OutputStream output(Socket socket) throws ProbeFailure {
        try {
            return socket.getOutputStream();
        } catch (IOException e) {
            throw new ProbeFailure(ProbeFailure.describe(e));
        }
    }

    public void write(byte[] bytes) throws ProbeFailure {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** The next byte, or -1 at the end of the stream. */
    public int read() throws ProbeFailure {
        if (start == end && !fill()) {
            return -1;
        }
        return buffer[start++] & 0xff;
    }

    /** The next byte; the end of the stream is a failure worded for where it happened. */
    public int next() throws ProbeFailure {
        int b = read();
        if (b < 0) {
            throw new ProbeFailure(received == 0 ? peer.closedSilent : CLOSED_MID_RESPONSE);
        }
        return b;
    }

    /** No reader may ask for more at once: a length from a peer is checked against its protocol's cap first. */
    public static final int MAX_CHUNK = 1 << 20;

    /** {@code count} bytes; the caller has checked {@code count} against what the protocol allows. */
    public byte[] next(int count) throws ProbeFailure {
        if (count < 0 || count > MAX_CHUNK) {
            throw new IllegalStateException("a reader asked for " + count + " bytes: a length from a peer went uncapped");
        }
        byte[] bytes = new byte[count];
        for (int i = 0; i < count; i++) {
            bytes[i] = (byte) next();
        }
        return bytes;
    }

    /** A line without its CR LF, at most {@code max} characters (ISO-8859-1). */
    public String line(int max, String tooLong) throws ProbeFailure {
        StringBuilder line = new StringBuilder();
        while (true) {
            char c = (char) next();
            if (c == '\n') {
                int length = line.length();
                return length > 0 && line.charAt(length - 1) == '\r' ? line.substring(0, length - 1) : line.toString();
            }
            if (line.length() >= max) {
                throw new ProbeFailure(tooLong);
            }
            line.append(c);
        }
    }

    /** How many bytes have come from the peer. */
    public long received() {
        return received;
    }

    /**
     * Whether bytes were received that no reader has taken: a server that answers a plain-text request for TLS with
     * more than its answer is not to be trusted with the rest (what libpq checks since CVE-2021-23222).
     */
    public boolean hasUnread() {
        return start < end;
    }

    /** What is left of the exchange's deadline, in whole milliseconds (0 once it has passed). */
    public long millisLeft() {
        return clock.millisUntil(deadline);
    }

    /** From now on, reads end within {@code millis} if that comes before the exchange's own deadline. */
    public void allowAtMost(long millis) {
        deadline = Math.min(deadline, clock.nanoTime() + millis * 1_000_000);
    }

    /**
     * For a connection kept open between exchanges (a watch): whether bytes, or the connection's end, come before
     * {@code deadline}, false when nothing did; the reads that follow end by it too.
     */
    public boolean arrives(long deadline) throws ProbeFailure {
        this.deadline = deadline;
        if (start < end || ended) {
            return true;
        }
        if (clock.millisUntil(deadline) <= 0) {
            return false;
        }
        try {
            receive(); // bytes, or the end
            return true;
        } catch (SocketTimeoutException quiet) {
            return false;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    private boolean fill() throws ProbeFailure {
        if (clock.millisUntil(deadline) <= 0) {
            throw timeout.failure();
        }
        try {
            return receive();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    private boolean receive() throws IOException {
        if (ended) {
            return false;
        }
        if (readTimeout != null) {
            readTimeout.within((int) Math.min(clock.millisUntil(deadline), Integer.MAX_VALUE));
        }
        int n = in.read(buffer);
        if (n < 0) {
            ended = true;
            return false;
        }
        start = 0;
        end = n;
        received += n;
        return true;
    }

    private ProbeFailure failure(IOException e) {
        if (e instanceof SocketTimeoutException) {
            return timeout.failure();
        }
        String reason = ProbeFailure.describe(e);
        return new ProbeFailure(received == 0 && reason.equals("connection reset") ? peer.resetSilent : reason);
    }
}
