package dev.sidecarwait.tls;

import dev.sidecarwait.UtcTime;
import dev.sidecarwait.dns.Literals;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's certificate as native/tls/swtls.c's swtls_peer reports it: typed fields, each a type byte, a two-byte
 * length and that many bytes, as the certificate holds them. Nothing is split on a character: a name holding a newline
 * or a NUL arrives whole, and matches nothing (ServerName). Fields of an unknown type are skipped.
 */
final class PeerFields {

    static final int SUBJECT_CN = 1;
    static final int ISSUER_CN = 2;
    static final int NOT_BEFORE = 3;
    static final int NOT_AFTER = 4;
    static final int DNS = 5;
    static final int IP = 6;
    static final int DATED_DEPTH = 7;
    static final int DATED_CN = 8;
    static final int DATED_NOT_BEFORE = 9;
    static final int DATED_NOT_AFTER = 10;

    /** The leaf, and the chain's certificate out of its validity nearest to it (null: none found). */
    static final class Read {

        private final PeerCertificate certificate;
        private final ChainFinding.Dated dated;

        Read(PeerCertificate certificate, ChainFinding.Dated dated) {
            this.certificate = certificate;
            this.dated = dated;
        }

        PeerCertificate certificate() {
            return certificate;
        }

        ChainFinding.Dated dated() {
            return dated;
        }
    }

    private PeerFields() {
    }

    /** The certificate the first {@code length} bytes describe; an {@link IllegalArgumentException} if they do not. */
    static Read read(byte[] fields, int length) {
        if (length < 0 || length > fields.length) {
            throw new IllegalArgumentException("a certificate description longer than its buffer");
        }
        String subject = "";
        String issuer = "";
        Instant notBefore = null;
        Instant notAfter = null;
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        int datedDepth = -1;
        String datedSubject = "";
        Instant datedFrom = null;
        Instant datedUntil = null;
        int at = 0;
        while (at < length) {
            if (length - at < 3) {
                throw new IllegalArgumentException("a field cut short");
            }
            int type = fields[at] & 0xff;
            int size = (fields[at + 1] & 0xff) << 8 | fields[at + 2] & 0xff;
            int value = at + 3;
            if (size > length - value) {
                throw new IllegalArgumentException("a field longer than what is left");
            }
            switch (type) {
                case SUBJECT_CN -> subject = utf8(fields, value, size);
                case ISSUER_CN -> issuer = utf8(fields, value, size);
                case NOT_BEFORE -> notBefore = time(fields, value, size);
                case NOT_AFTER -> notAfter = time(fields, value, size);
                case DNS -> dns.add(new String(fields, value, size, StandardCharsets.ISO_8859_1)); // a byte a char
                case IP -> {
                    String address = address(fields, value, size);
                    if (address != null) {
                        ips.add(address);
                    }
                }
                case DATED_DEPTH -> datedDepth = size == 1 ? fields[value] & 0xff : -1;
                case DATED_CN -> datedSubject = utf8(fields, value, size);
                case DATED_NOT_BEFORE -> datedFrom = time(fields, value, size);
                case DATED_NOT_AFTER -> datedUntil = time(fields, value, size);
                default -> {
                    // a field this reader does not know: skipped whole
                }
            }
            at = value + size;
        }
        if (notBefore == null || notAfter == null) {
            throw new IllegalArgumentException("no validity period");
        }
        ChainFinding.Dated dated = datedDepth >= 0 && datedFrom != null && datedUntil != null
                ? new ChainFinding.Dated(datedDepth, datedSubject, datedFrom, datedUntil) : null;
        return new Read(new PeerCertificate(subject, issuer, notBefore, notAfter, dns, ips), dated);
    }

    private static String utf8(byte[] fields, int at, int size) {
        return new String(fields, at, size, StandardCharsets.UTF_8);
    }

    /** Year (two bytes), month, day, hour, minute, second, UTC. */
    private static Instant time(byte[] fields, int at, int size) {
        if (size != 7) {
            throw new IllegalArgumentException("a time that is not 7 bytes");
        }
        int year = (fields[at] & 0xff) << 8 | fields[at + 1] & 0xff;
        int month = fields[at + 2];
        int day = fields[at + 3];
        int hour = fields[at + 4];
        int minute = fields[at + 5];
        int second = fields[at + 6];
        if (month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 60) {
            throw new IllegalArgumentException("a time that is no date");
        }
        return UtcTime.of(year, month, day, hour, minute, second);
    }

    /** An IPv4 or IPv6 address as text; null for any other length, which is no address. */
    private static String address(byte[] fields, int at, int size) {
        if (size != 4 && size != 16) {
            return null;
        }
        byte[] bytes = new byte[size];
        System.arraycopy(fields, at, bytes, 0, size);
        try {
            return Literals.text(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException impossible) {
            return null;
        }
    }
}
