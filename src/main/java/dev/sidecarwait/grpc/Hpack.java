package dev.sidecarwait.grpc;

import dev.sidecarwait.wire.ProbeFailure;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * HPACK (RFC 7541), HTTP/2's header compression. The decoder reads what a server sends, as the RFC defines it:
 * indexed fields, literals with and without indexing, table size updates, the static table and a dynamic table
 * of at most the size this side allows ({@link #TABLE_SIZE}, never raised), plain and Huffman-coded strings. Every
 * length a peer announces is checked against the bytes that are left before anything is made of it. The encoder
 * writes only what this client sends: literal fields without indexing, names and values as they are.
 */
final class Hpack {

    /** SETTINGS_HEADER_TABLE_SIZE's initial value, which this client never raises. */
    static final int TABLE_SIZE = 4096;
    /** Integers larger than this are never a size, index or length this client accepts. */
    private static final int MAX_INTEGER = 1 << 20;

    /** RFC 7541, appendix A: index 1 is the first entry. */
    private static final String[][] STATIC_TABLE = {
            {":authority", ""}, {":method", "GET"}, {":method", "POST"}, {":path", "/"}, {":path", "/index.html"},
            {":scheme", "http"}, {":scheme", "https"}, {":status", "200"}, {":status", "204"}, {":status", "206"},
            {":status", "304"}, {":status", "400"}, {":status", "404"}, {":status", "500"}, {"accept-charset", ""},
            {"accept-encoding", "gzip, deflate"}, {"accept-language", ""}, {"accept-ranges", ""}, {"accept", ""},
            {"access-control-allow-origin", ""}, {"age", ""}, {"allow", ""}, {"authorization", ""},
            {"cache-control", ""}, {"content-disposition", ""}, {"content-encoding", ""}, {"content-language", ""},
            {"content-length", ""}, {"content-location", ""}, {"content-range", ""}, {"content-type", ""},
            {"cookie", ""}, {"date", ""}, {"etag", ""}, {"expect", ""}, {"expires", ""}, {"from", ""}, {"host", ""},
            {"if-match", ""}, {"if-modified-since", ""}, {"if-none-match", ""}, {"if-range", ""},
            {"if-unmodified-since", ""}, {"last-modified", ""}, {"link", ""}, {"location", ""}, {"max-forwards", ""},
            {"proxy-authenticate", ""}, {"proxy-authorization", ""}, {"range", ""}, {"referer", ""}, {"refresh", ""},
            {"retry-after", ""}, {"server", ""}, {"set-cookie", ""}, {"strict-transport-security", ""},
            {"transfer-encoding", ""}, {"user-agent", ""}, {"vary", ""}, {"via", ""}, {"www-authenticate", ""}};

    /** A decoded field. Names and values as octets, read as ISO-8859-1 so that no byte is lost or refused. */
    record Field(String name, String value) {
    }

    /** The dynamic table, newest entry first. */
    private final Deque<Field> dynamic = new ArrayDeque<>();
    private final int allowedSize;
    private int dynamicSize;
    private int maxSize;

    Hpack() {
        this(TABLE_SIZE);
    }

    /** {@code allowedSize}: the SETTINGS_HEADER_TABLE_SIZE this side announced. */
    Hpack(int allowedSize) {
        this.allowedSize = allowedSize;
        this.maxSize = allowedSize;
    }

    /** The entries of the dynamic table, newest first: for tests. */
    List<Field> dynamicTable() {
        return List.copyOf(dynamic);
    }

    int dynamicTableSize() {
        return dynamicSize;
    }

    /** One header block: every field in order. The dynamic table lives on across the blocks of one connection. */
    List<Field> decode(byte[] block) throws ProbeFailure {
        List<Field> fields = new ArrayList<>();
        int[] at = {0};
        while (at[0] < block.length) {
            int first = block[at[0]] & 0xff;
            if ((first & 0x80) != 0) {
                fields.add(entry(integer(block, at, 7)));
            } else if ((first & 0xc0) == 0x40) {
                Field field = literal(block, at, 6);
                fields.add(field);
                add(field);
            } else if ((first & 0xe0) == 0x20) {
                if (!fields.isEmpty()) {
                    throw new ProbeFailure("malformed HPACK block (a table size update after a field)");
                }
                resize(integer(block, at, 5));
            } else {
                fields.add(literal(block, at, 4)); // without indexing (0000) or never indexed (0001)
            }
        }
        return fields;
    }

    /** Literal fields without indexing, names and values as they are (RFC 7541, section 6.2.2, new name). */
    static byte[] encode(List<Field> fields) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (Field field : fields) {
            block.write(0);
            string(block, field.name());
            string(block, field.value());
        }
        return block.toByteArray();
    }

    private static void string(ByteArrayOutputStream block, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        integer(block, 0, 7, bytes.length);
        block.writeBytes(bytes);
    }

    /** RFC 7541, section 5.1: {@code value} with an N-bit prefix after the bits in {@code first}. */
    static void integer(ByteArrayOutputStream block, int first, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            block.write(first | value);
            return;
        }
        block.write(first | max);
        for (value -= max; value >= 0x80; value >>>= 7) {
            block.write(value & 0x7f | 0x80);
        }
        block.write(value);
    }

    private static int integer(byte[] block, int[] at, int prefixBits) throws ProbeFailure {
        int max = (1 << prefixBits) - 1;
        int value = block[at[0]++] & max;
        if (value < max) {
            return value;
        }
        for (int shift = 0; ; shift += 7) {
            if (at[0] >= block.length) {
                throw new ProbeFailure("malformed HPACK block (an integer runs past the end)");
            }
            int next = block[at[0]++] & 0xff;
            value += (next & 0x7f) << shift;
            if (value > MAX_INTEGER || shift > 14) {
                throw new ProbeFailure("malformed HPACK block (an integer larger than " + MAX_INTEGER + ")");
            }
            if ((next & 0x80) == 0) {
                return value;
            }
        }
    }

    private Field literal(byte[] block, int[] at, int prefixBits) throws ProbeFailure {
        int index = integer(block, at, prefixBits);
        String name = index == 0 ? string(block, at) : entry(index).name();
        return new Field(name, string(block, at));
    }

    private static String string(byte[] block, int[] at) throws ProbeFailure {
        if (at[0] >= block.length) {
            throw new ProbeFailure("malformed HPACK block (a string runs past the end)");
        }
        boolean huffman = (block[at[0]] & 0x80) != 0;
        int length = integer(block, at, 7);
        if (length > block.length - at[0]) {
            throw new ProbeFailure("malformed HPACK block (a string of " + length + " octets, " + (block.length - at[0])
                    + " left)");
        }
        int from = at[0];
        at[0] += length;
        byte[] octets = huffman ? HpackHuffman.decode(block, from, length)
                : java.util.Arrays.copyOfRange(block, from, from + length);
        return new String(octets, StandardCharsets.ISO_8859_1);
    }

    private Field entry(int index) throws ProbeFailure {
        if (index >= 1 && index <= STATIC_TABLE.length) {
            return new Field(STATIC_TABLE[index - 1][0], STATIC_TABLE[index - 1][1]);
        }
        int position = index - STATIC_TABLE.length - 1;
        if (index < 1 || position >= dynamic.size()) {
            throw new ProbeFailure("malformed HPACK block (index " + index + " is in neither table)");
        }
        return dynamic.stream().skip(position).findFirst().orElseThrow();
    }

    /** RFC 7541, section 4.4: evict from the oldest end; an entry larger than the table empties it. */
    private void add(Field field) {
        int size = size(field);
        while (!dynamic.isEmpty() && dynamicSize + size > maxSize) {
            dynamicSize -= size(dynamic.removeLast());
        }
        if (size <= maxSize) {
            dynamic.addFirst(field);
            dynamicSize += size;
        }
    }

    private void resize(int size) throws ProbeFailure {
        if (size > allowedSize) {
            throw new ProbeFailure("malformed HPACK block (a table of " + size + " octets, more than the " + allowedSize
                    + " allowed)");
        }
        maxSize = size;
        while (dynamicSize > maxSize) {
            dynamicSize -= size(dynamic.removeLast());
        }
    }

    private static int size(Field field) {
        return field.name().length() + field.value().length() + 32;
    }
}
