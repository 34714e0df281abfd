package dev.sidecarwait.dns;

import dev.sidecarwait.wire.BigEndian;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The two DNS messages a lookup needs (RFC 1035): a query for one name's A or AAAA records, with recursion desired
 * and EDNS(0) for 1232-byte UDP answers as Go sends it (net/dnsclient_unix.go, newRequest), and the reading of an
 * answer: its header, its question, and the records of the type asked for. A reply that cannot be read is null:
 * a resolver ignores it and keeps waiting for the real one, as Go does.
 */
public final class DnsMessage {

    public static final int A = 1;
    public static final int AAAA = 28;
    static final int CLASS_IN = 1;
    static final int OPT = 41;
    /** What Go accepts over UDP (dnsflagday.net/2020), and so advertises in EDNS(0). */
    public static final int MAX_UDP = 1232;

    /** How the server answered. {@code addresses}: the records of the type asked for, in the answer's order. */
    public record Reply(int id, boolean truncated, boolean authoritative, boolean recursionAvailable, int rcode,
                        String name, int type, int answerCount, int additionalCount, List<InetAddress> addresses) {
    }

    public static final int NOERROR = 0;
    public static final int SERVFAIL = 2;
    public static final int NXDOMAIN = 3;
    public static final int REFUSED = 5;

    private DnsMessage() {
    }

    /** A query for {@code name} (rooted, "db.shop.svc.cluster.local.") and {@code type}. */
    public static byte[] query(int id, String name, int type) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        BigEndian.int16(out, id);
        BigEndian.int16(out, 0x0100); // a standard query, recursion desired
        BigEndian.int16(out, 1); // one question
        BigEndian.int16(out, 0);
        BigEndian.int16(out, 0);
        BigEndian.int16(out, 1); // one additional record: EDNS(0)
        for (String label : name.split("\\.")) {
            if (!label.isEmpty()) {
                byte[] bytes = label.getBytes(StandardCharsets.ISO_8859_1);
                out.write(bytes.length);
                out.write(bytes, 0, bytes.length);
            }
        }
        out.write(0);
        BigEndian.int16(out, type);
        BigEndian.int16(out, CLASS_IN);
        out.write(0); // the root name
        BigEndian.int16(out, OPT);
        BigEndian.int16(out, MAX_UDP); // in OPT, the class is the UDP payload size
        BigEndian.int32(out, 0); // extended rcode, version 0, no flags
        BigEndian.int16(out, 0); // no options
        return out.toByteArray();
    }

    /** Whether a name can be asked for: labels of 1 to 63 bytes, 254 bytes in all with the root (Go's isDomainName). */
    public static boolean askable(String rootedName) {
        if (rootedName.length() > ResolvConf.MAX_NAME || !rootedName.endsWith(".") || rootedName.equals(".")) {
            return false;
        }
        for (String label : rootedName.substring(0, rootedName.length() - 1).split("\\.", -1)) {
            if (label.isEmpty() || label.length() > 63) {
                return false;
            }
            for (int i = 0; i < label.length(); i++) {
                if (label.charAt(i) <= ' ' || label.charAt(i) >= 127) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The reply in {@code bytes[0, length)}, or null when it is not a DNS response that can be read. */
    public static Reply read(byte[] bytes, int length) {
        try {
            return new Reader(bytes, length).reply();
        } catch (IndexOutOfBoundsException | IllegalStateException unreadable) {
            return null;
        }
    }

    /** Whether {@code reply} answers the query for {@code name} and {@code type} with that id (Go's checkResponse). */
    public static boolean answers(Reply reply, int id, String name, int type) {
        return reply.id() == id && reply.type() == type && reply.name().equalsIgnoreCase(name);
    }

    private static final class Reader {
        private final byte[] bytes;
        private final int length;
        private int at;

        Reader(byte[] bytes, int length) {
            this.bytes = bytes;
            this.length = Math.min(length, bytes.length);
        }

        Reply reply() {
            int id = u16();
            int flags = u16();
            if ((flags & 0x8000) == 0) {
                throw new IllegalStateException("a query, not a response");
            }
            int questions = u16();
            int answers = u16();
            int authorities = u16();
            int additionals = u16();
            if (questions != 1) {
                throw new IllegalStateException("a response to one question has that question");
            }
            String name = name();
            int type = u16();
            if (u16() != CLASS_IN) {
                throw new IllegalStateException("not class IN");
            }
            boolean truncated = (flags & 0x0200) != 0;
            List<InetAddress> addresses = new ArrayList<>();
            for (int i = 0; i < answers; i++) {
                try {
                    record(type, addresses);
                } catch (IndexOutOfBoundsException cut) {
                    if (!truncated) {
                        throw cut;
                    }
                    break; // a truncated answer may end mid-record: what came whole is kept, and TCP asks again
                }
            }
            return new Reply(id, truncated, (flags & 0x0400) != 0, (flags & 0x0080) != 0, flags & 0x000f, name,
                    type, answers, additionals + authorities, List.copyOf(addresses));
        }

        /** One answer record, kept when it is an address of {@code type} (a CNAME on the way is passed over). */
        private void record(int type, List<InetAddress> addresses) {
            name();
            int recordType = u16();
            int recordClass = u16();
            at += 4; // the TTL: never kept, nothing is cached
            int size = u16();
            int end = at + size;
            if (end > length) {
                throw new IndexOutOfBoundsException("a record runs past the message");
            }
            if (recordClass == CLASS_IN && recordType == type && (type == A && size == 4 || type == AAAA && size == 16)) {
                addresses.add(address(at, size));
            }
            at = end;
        }

        private InetAddress address(int from, int size) {
            byte[] raw = new byte[size];
            System.arraycopy(bytes, from, raw, 0, size);
            try {
                return InetAddress.getByAddress(raw);
            } catch (UnknownHostException impossible) {
                throw new IllegalStateException("4 or 16 bytes are an address");
            }
        }

        /** A name, following compression pointers (each must point back, so none can loop), rooted and lower case. */
        private String name() {
            StringBuilder name = new StringBuilder();
            int position = at;
            int end = -1;
            while (true) {
                int size = byteAt(position);
                if (size == 0) {
                    position++;
                    break;
                }
                if ((size & 0xc0) == 0xc0) {
                    int target = ((size & 0x3f) << 8) | byteAt(position + 1);
                    if (target >= position) {
                        throw new IllegalStateException("a compression pointer that does not point back");
                    }
                    if (end < 0) {
                        end = position + 2;
                    }
                    position = target;
                    continue;
                }
                if ((size & 0xc0) != 0) {
                    throw new IllegalStateException("an unknown label type");
                }
                for (int i = 1; i <= size; i++) {
                    name.append((char) byteAt(position + i));
                }
                name.append('.');
                if (name.length() > 255) {
                    throw new IllegalStateException("a name longer than 255 bytes");
                }
                position += size + 1;
            }
            at = end >= 0 ? end : position;
            return name.length() == 0 ? "." : name.toString().toLowerCase(Locale.ROOT);
        }

        private int u16() {
            int value = (byteAt(at) << 8) | byteAt(at + 1);
            at += 2;
            return value;
        }

        private int byteAt(int index) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException("past the end of the message");
            }
            return bytes[index] & 0xff;
        }
    }
}
