package dev.sidecarwait.tls;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One DER element (X.690) of a certificate: its tag and where its contents lie in the bytes, which are never copied
 * until asked for. Definite lengths of at most four bytes, inside the bytes given; anything else is not DER and throws
 * IllegalArgumentException, which the caller takes as a certificate it cannot read.
 */
final class Der {

    static final int BOOLEAN = 0x01;
    static final int INTEGER = 0x02;
    static final int BIT_STRING = 0x03;
    static final int OCTET_STRING = 0x04;
    static final int NULL = 0x05;
    static final int OID = 0x06;
    static final int SEQUENCE = 0x30;
    static final int SET = 0x31;

    private final byte[] bytes;
    private final int tag;
    private final int header;
    private final int start;
    private final int length;
    private final int end;
    private List<Der> children;

    private Der(byte[] bytes, int tag, int header, int start, int length) {
        this.bytes = bytes;
        this.tag = tag;
        this.header = header;
        this.start = start;
        this.length = length;
        this.end = start + length;
    }

    /** The one element {@code der} holds, with nothing after it. */
    static Der read(byte[] der) {
        Der element = at(der, 0, der.length);
        if (element.end != der.length) {
            throw new IllegalArgumentException("bytes after the DER element");
        }
        return element;
    }

    private static Der at(byte[] bytes, int at, int limit) {
        if (at + 2 > limit) {
            throw new IllegalArgumentException("a DER element cut short");
        }
        int tag = bytes[at] & 0xff;
        if ((tag & 0x1f) == 0x1f) {
            throw new IllegalArgumentException("a DER tag of more than one byte");
        }
        int length = bytes[at + 1] & 0xff;
        int start = at + 2;
        if (length >= 0x80) {
            int count = length & 0x7f;
            if (count == 0 || count > 4 || start + count > limit) {
                throw new IllegalArgumentException("a DER length that is not definite");
            }
            length = 0;
            for (int i = 0; i < count; i++) {
                length = (length << 8) | (bytes[start + i] & 0xff);
            }
            start += count;
            if (length < 0 || length > limit - start) {
                throw new IllegalArgumentException("a DER length past its end");
            }
        } else if (length > limit - start) {
            throw new IllegalArgumentException("a DER length past its end");
        }
        return new Der(bytes, tag, at, start, length);
    }

    int tag() {
        return tag;
    }

    boolean constructed() {
        return (tag & 0x20) != 0;
    }

    /** The elements inside a constructed one, in order (read once). */
    List<Der> children() {
        if (children == null) {
            List<Der> read = new ArrayList<>();
            int at = start;
            while (at < end) {
                Der child = at(bytes, at, end);
                read.add(child);
                at = child.end;
            }
            children = java.util.Collections.unmodifiableList(read);
        }
        return children;
    }

    /** Whether this is an OBJECT IDENTIFIER whose contents are {@code oid}'s (its DER contents, as in OID_*). */
    boolean isOid(byte[] oid) {
        return tag == OID && contentsEqual(oid);
    }

    /** The child at {@code index}, which must have {@code expectedTag}. */
    Der child(int index, int expectedTag) {
        List<Der> children = children();
        if (index >= children.size() || children.get(index).tag != expectedTag) {
            throw new IllegalArgumentException("a DER element of another kind than X.509's");
        }
        return children.get(index);
    }

    /** The contents, copied. */
    byte[] contents() {
        return Arrays.copyOfRange(bytes, start, end);
    }

    /** The whole element, tag and length included, copied. */
    byte[] encoded() {
        return Arrays.copyOfRange(bytes, header, end);
    }

    int length() {
        return length;
    }

    /** The contents as text, each byte one character (the names compared and shown here are ASCII). */
    String latin1() {
        return new String(bytes, start, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    boolean contentsEqual(byte[] other) {
        return Arrays.equals(bytes, start, end, other, 0, other.length);
    }

    /** An OBJECT IDENTIFIER's contents in dotted form. */
    String oid() {
        if (tag != OID || length == 0) {
            throw new IllegalArgumentException("not an OBJECT IDENTIFIER");
        }
        StringBuilder dotted = new StringBuilder();
        long value = 0;
        for (int i = start; i < end; i++) {
            value = (value << 7) | (bytes[i] & 0x7f);
            if (value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("an OBJECT IDENTIFIER arc too large");
            }
            if ((bytes[i] & 0x80) == 0) {
                if (dotted.length() == 0) {
                    dotted.append(value < 80 ? value / 40 : 2).append('.').append(value < 80 ? value % 40 : value - 80);
                } else {
                    dotted.append('.').append(value);
                }
                value = 0;
            }
        }
        return dotted.toString();
    }
}
