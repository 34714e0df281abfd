package dev.sidecarwait.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A server that means harm to a TLS client, on a loopback port of its own: it never answers the ClientHello, answers
 * it with garbage, resets the connection, sends an alert at once, or stands between the client and a real TLS server
 * (nginx) and holds back its bytes, a byte every {@link #DRIP_MILLIS} ms: all of them, every application-data record
 * once the TLS 1.2 handshake is done, or (TLS 1.3, where the handshake's own records are application data too)
 * everything the server sends once the client has sent its first encrypted record, its Finished: the session tickets
 * and the response (records are read by their 5-byte header: RFC 8446 5.1). Or it sends a record longer than TLS
 * allows (RFC 8446 5.1: 2^14 bytes of plaintext, a little more encrypted), or answers with zero-length handshake records
 * without end (which RFC 8446 5.1 forbids), a thousand every millisecond or so. Or, a fuzzer of the client's engine
 * on the real process, it passes the real server's bytes on with a few of them changed, a different few on each
 * connection (seeded by the connection's number): in TLS 1.2 the ServerHello, the certificates and the key exchange
 * arrive in the clear, so the client's parsers of all three meet every kind of damage. It ends no
 * connection of its own accord but after a fatal alert, as TLS servers do: the client must.
 */
public final class HostilePeer implements AutoCloseable {

    /** How it behaves. */
    public enum Mode { SILENT, GARBAGE, RESET, ALERT, UNKNOWN_ALERT, OVERSIZED_RECORD, ZERO_LENGTH_RECORDS, DRIP_ALL,
        DRIP_AFTER_HANDSHAKE, DRIP_AFTER_CLIENT_FINISHED, MUTATE }

    public static final long DRIP_MILLIS = 400;

    /** A TLS 1.2 fatal alert record: handshake_failure (40). */
    private static final byte[] ALERT_RECORD = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 40};
    /** The same with a description no RFC defines (251). */
    private static final byte[] UNKNOWN_ALERT_RECORD = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, (byte) 251};

    public final int port;
    private final Mode mode;
    private final int upstream;
    private final ServerSocket listener;
    private final List<Socket> open = new ArrayList<>();
    private final Thread acceptor;
    private final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();

    /** {@code upstream}: the real TLS server's port, for the DRIP modes (else 0). */
    public HostilePeer(Mode mode, int upstream) throws IOException {
        this.mode = mode;
        this.upstream = upstream;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = listener.getLocalPort();
        this.acceptor = new Thread(this::accept, "hostile peer " + mode);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                track(client);
                Thread each = new Thread(() -> serve(client), "hostile peer connection");
                each.setDaemon(true);
                each.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            switch (mode) {
                case SILENT -> in.transferTo(OutputStream.nullOutputStream());
                case GARBAGE -> {
                    in.read(new byte[512]);
                    byte[] junk = new byte[4096];
                    new java.util.Random(7).nextBytes(junk);
                    junk[0] = 0x16; // a handshake record's type, a version, then nonsense
                    junk[1] = 0x03;
                    junk[2] = 0x03;
                    out.write(junk);
                    out.flush();
                    in.transferTo(OutputStream.nullOutputStream());
                }
                case RESET -> {
                    in.read(new byte[512]);
                    client.setSoLinger(true, 0);
                    client.close();
                }
                case ALERT, UNKNOWN_ALERT -> {
                    in.read(new byte[512]);
                    out.write(mode == Mode.ALERT ? ALERT_RECORD : UNKNOWN_ALERT_RECORD);
                    out.flush();
                    client.shutdownOutput(); // a fatal alert ends the connection, as every TLS server ends it
                    in.transferTo(OutputStream.nullOutputStream());
                }
                case OVERSIZED_RECORD -> {
                    in.read(new byte[512]);
                    byte[] record = new byte[5 + 40000];
                    record[0] = 0x16; // a handshake record of 40,000 bytes
                    record[1] = 0x03;
                    record[2] = 0x03;
                    record[3] = (byte) (40000 >> 8);
                    record[4] = (byte) (40000 & 0xff);
                    out.write(record);
                    out.flush();
                    in.transferTo(OutputStream.nullOutputStream());
                }
                case ZERO_LENGTH_RECORDS -> {
                    in.read(new byte[512]);
                    byte[] records = new byte[5 * 1000];
                    for (int i = 0; i < records.length; i += 5) {
                        records[i] = 0x16; // a handshake record, TLS 1.2's version, no bytes
                        records[i + 1] = 0x03;
                        records[i + 2] = 0x03;
                    }
                    while (true) {
                        out.write(records);
                        out.flush();
                        Thread.sleep(1);
                    }
                }
                case DRIP_ALL, DRIP_AFTER_HANDSHAKE, DRIP_AFTER_CLIENT_FINISHED, MUTATE -> between(client, in, out);
            }
        } catch (IOException | InterruptedException ended) {
            // the client went away, or the peer was closed
        }
    }

    /** The client's bytes to the upstream at once; the upstream's back, held back as the mode says. */
    private void between(Socket client, InputStream in, OutputStream out) throws IOException, InterruptedException {
        Socket server = new Socket(InetAddress.getLoopbackAddress(), upstream);
        track(server);
        java.util.concurrent.atomic.AtomicBoolean clientFinished = new java.util.concurrent.atomic.AtomicBoolean();
        Thread up = new Thread(() -> {
            try {
                OutputStream toServer = server.getOutputStream();
                while (true) {
                    byte[] header = in.readNBytes(5);
                    byte[] body = in.readNBytes(header.length < 5 ? 0 : (header[3] & 0xff) << 8 | header[4] & 0xff);
                    toServer.write(header);
                    toServer.write(body);
                    toServer.flush();
                    if (header.length < 5) {
                        return;
                    }
                    clientFinished.compareAndSet(false, header[0] == 23); // the client's first encrypted record
                }
            } catch (IOException ended) {
                // either side closed
            }
        }, "hostile peer upstream");
        up.setDaemon(true);
        up.start();
        InputStream back = server.getInputStream();
        if (mode == Mode.MUTATE) {
            mutated(back, out, new java.util.Random(connections.incrementAndGet()));
            return;
        }
        boolean dripping = mode == Mode.DRIP_ALL;
        while (true) {
            byte[] header = back.readNBytes(5);
            if (header.length < 5) {
                return;
            }
            byte[] body = back.readNBytes((header[3] & 0xff) << 8 | header[4] & 0xff);
            dripping |= mode == Mode.DRIP_AFTER_HANDSHAKE ? header[0] == 23 // application data: in TLS 1.2, after the handshake
                    : mode == Mode.DRIP_AFTER_CLIENT_FINISHED && clientFinished.get();
            byte[] record = new byte[header.length + body.length];
            System.arraycopy(header, 0, record, 0, 5);
            System.arraycopy(body, 0, record, 5, body.length);
            if (!dripping) {
                out.write(record);
                out.flush();
                continue;
            }
            for (byte b : record) {
                out.write(b);
                out.flush();
                Thread.sleep(DRIP_MILLIS);
            }
        }
    }

    /** How many connections the peer has taken. */
    public int connections() {
        return connections.get();
    }

    /**
     * The server's bytes, one to four of its first flight (what its first read brings) changed: a bit flipped, or set
     * to 0x00, 0xff or anything. Only inside records, never their 5-byte headers, whose version field a client may
     * rightly ignore (RFC 8446 5.1): every change then breaks the handshake, and no attempt can pass.
     */
    private static void mutated(InputStream back, OutputStream out, java.util.Random random) throws IOException {
        byte[] buffer = new byte[16384];
        for (int n, reads = 0; (n = back.read(buffer)) > 0; reads++) {
            for (int changes = reads == 0 ? 1 + random.nextInt(4) : 0; changes > 0; changes--) {
                int i = insideRecord(buffer, n, random.nextInt(n));
                byte changed = switch (random.nextInt(4)) {
                    case 0 -> (byte) (buffer[i] ^ (1 << random.nextInt(8)));
                    case 1 -> 0;
                    case 2 -> (byte) 0xff;
                    default -> (byte) random.nextInt(256);
                };
                buffer[i] = changed != buffer[i] ? changed : (byte) (buffer[i] ^ 1); // always a change
            }
            out.write(buffer, 0, n);
            out.flush();
        }
    }

    /**
     * {@code at}, or the first byte after it that is in no record header and no ChangeCipherSpec (TLS 1.3's is a
     * compatibility no-op outside the transcript); records walked by their lengths from 0.
     */
    private static int insideRecord(byte[] bytes, int n, int at) {
        for (int start = 0; start + 5 < n; start += 5 + ((bytes[start + 3] & 0xff) << 8 | bytes[start + 4] & 0xff)) {
            int end = start + 5 + ((bytes[start + 3] & 0xff) << 8 | bytes[start + 4] & 0xff);
            if (at < end && bytes[start] != 20) {
                return Math.min(Math.max(at, start + 5), n - 1);
            }
            at = Math.max(at, end);
        }
        return Math.min(at, n - 1);
    }

    private synchronized void track(Socket socket) {
        open.add(socket);
    }

    @Override
    public synchronized void close() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
