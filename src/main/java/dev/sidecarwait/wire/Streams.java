package dev.sidecarwait.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * An InputStream and an OutputStream made of one read and one write of a range of bytes, as the carriers under a
 * {@link Wire} have them (a polled channel, a TLS engine over its socket); a single byte goes as a range of one.
 */
public final class Streams {

    /** Reads into a range: how many bytes, or -1 at the end. */
    public interface RangeReader {
        int read(byte[] bytes, int offset, int length) throws IOException;
    }

    /** Writes all of a range. */
    public interface RangeWriter {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    private Streams() {
    }

    public static InputStream input(RangeReader reader) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                Objects.checkFromIndexSize(offset, length, bytes.length);
                return length == 0 ? 0 : reader.read(bytes, offset, length); // as InputStream's contract has it
            }
        };
    }

    public static OutputStream output(RangeWriter writer) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                writer.write(bytes, offset, length);
            }
        };
    }
}
