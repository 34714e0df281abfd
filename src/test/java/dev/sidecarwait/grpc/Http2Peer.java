package dev.sidecarwait.grpc;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP/2 server that plays a script, for the answers no real server here gives (Envoy's local replies,
 * frames out of the ordinary). Every frame the client sent is kept, for the test to check. The header blocks it
 * sends are encoded as Envoy's HPACK encoder (quiche's) encodes them: static-table indexes where a field is there
 * whole, literals with incremental indexing otherwise, every string Huffman-coded.
 */
final class Http2Peer implements AutoCloseable {

    record Frame(int type, int flags, int stream, byte[] payload) {
    }

    interface Script {
        void play(Http2Peer peer) throws IOException;
    }

    final List<Frame> received = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private DataInputStream in;
    private OutputStream out;

    Http2Peer(Script script) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread thread = new Thread(() -> {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(5000);
                in = new DataInputStream(socket.getInputStream());
                out = socket.getOutputStream();
                script.play(this);
                socket.shutdownOutput();
                readUntilClosed();
            } catch (IOException ended) {
                // the client went away: the test looks at what was received
            }
        }, "http2-peer");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** The client's connection preface, then its frames up to the end of stream 1 (the whole request). */
    void readRequest() throws IOException {
        byte[] preface = new byte[24];
        in.readFully(preface);
        if (!new String(preface, StandardCharsets.US_ASCII).equals("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")) {
            throw new IOException("no HTTP/2 preface");
        }
        Frame frame;
        do {
            frame = read();
        } while (!(frame.stream() == 1 && (frame.flags() & Http2Connection.END_STREAM) != 0));
    }

    Frame read() throws IOException {
        int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        Frame frame = new Frame(type, flags, stream, payload);
        received.add(frame);
        return frame;
    }

    void send(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(Http2Connection.frame(type, flags, stream, payload));
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Envoy's SETTINGS with its default options (Envoy's OptionsLimits): no push, unbounded streams, 256 MiB windows. */
    void sendEnvoySettings() throws IOException {
        send(Http2Connection.SETTINGS, 0, 0, settings(2, 0, 3, Integer.MAX_VALUE, 4, 256 * 1024 * 1024));
        send(8, 0, 0, new byte[] {0x0f, (byte) 0xff, 0, 1}); // WINDOW_UPDATE of the connection: 256 MiB - 64 KiB + 1
    }

    private void readUntilClosed() throws IOException {
        try {
            while (true) {
                read();
            }
        } catch (EOFException closed) {
            // the client closed: done
        }
    }

    boolean receivedGoAway() {
        return received.stream().anyMatch(frame -> frame.type() == Http2Connection.GOAWAY);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    static byte[] settings(int... idValues) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < idValues.length; i += 2) {
            out.write(idValues[i] >>> 8);
            out.write(idValues[i]);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write(idValues[i + 1] >>> shift);
            }
        }
        return out.toByteArray();
    }

    /** A header block as Envoy encodes it; each field "name", "value", or a static index "#8" for a whole field. */
    static byte[] block(String... fields) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].startsWith("#")) {
                Hpack.integer(block, 0x80, 7, Integer.parseInt(fields[i].substring(1)));
                continue;
            }
            String name = fields[i];
            String value = fields[++i];
            int index = staticName(name);
            Hpack.integer(block, 0x40, 6, index);
            if (index == 0) {
                huffman(block, name);
            }
            huffman(block, value);
        }
        return block.toByteArray();
    }

    private static void huffman(ByteArrayOutputStream block, String text) {
        byte[] coded = HpackHuffman.encode(text.getBytes(StandardCharsets.ISO_8859_1));
        Hpack.integer(block, 0x80, 7, coded.length);
        block.writeBytes(coded);
    }

    private static int staticName(String name) {
        return switch (name) {
            case ":status" -> 8;
            case "content-length" -> 28;
            case "content-type" -> 31;
            case "date" -> 33;
            case "server" -> 54;
            default -> 0;
        };
    }
}
