package dev.sidecarwait.grpc;

import dev.sidecarwait.Version;
import dev.sidecarwait.wire.BigEndian;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * gRPC: grpc.health.v1.Health/Check for a service (empty: the server as a whole), as the kubelet's gRPC probe
 * asks it, over HTTP/2 without TLS. Ready when the answer is SERVING. Everything else says what came back: another
 * status, no health service at all (UNIMPLEMENTED), a proxy's own answer when nothing is behind it (Envoy replies
 * to a gRPC request with grpc-status 14 UNAVAILABLE, "no healthy upstream", or a plain HTTP 503), or something
 * that is not gRPC. The connection ends with a GOAWAY, the goodbye HTTP/2 servers expect.
 */
public final class GrpcHealthCheck {

    static final String PATH = "/grpc.health.v1.Health/Check";
    /** A HealthCheckResponse is two or three bytes; a little room for fields a newer server might add. */
    private static final int MAX_MESSAGE = 1024;
    private static final String[] STATUS_NAMES = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
            "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
            "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
    private static final String[] SERVING_STATUSES = {"UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"};

    /** Asks host:port about {@code service} over the wire; returns what it said when SERVING, throws otherwise. */
    public String exchange(Wire wire, String host, int port, String service) throws ProbeFailure {
        String what = service.isEmpty() ? "the server" : "service '" + service + "'";
        Http2Connection http2 = new Http2Connection(wire);
        http2.open();
        http2.request(requestHeaders(host, port, wire.millisLeft()), request(service));
        try {
            Http2Connection.Headers headers = http2.headers(firstHeaders(http2));
            String status = headers.get(":status");
            if (!"200".equals(status)) {
                throw new ProbeFailure("answered HTTP " + status + " over HTTP/2, not gRPC" + body(http2, headers)
                        + ("503".equals(status) ? " (a proxy with no upstream?)" : ""));
            }
            String contentType = headers.get("content-type");
            if (contentType == null || !contentType.startsWith("application/grpc")) {
                throw new ProbeFailure("answered HTTP 200, but not gRPC (content-type '" + contentType + "')");
            }
            Http2Connection.Headers trailers = headers;
            ByteArrayOutputStream message = new ByteArrayOutputStream();
            while (!trailers.endStream()) {
                Http2Connection.Frame frame = http2.next();
                if (frame.type() == Http2Connection.HEADERS) {
                    trailers = http2.headers(frame);
                    if (!trailers.endStream()) {
                        throw new ProbeFailure("malformed gRPC answer (headers after headers, no end)");
                    }
                } else {
                    if (message.size() + frame.payload().length > MAX_MESSAGE + 5) {
                        throw new ProbeFailure("gRPC answer longer than a health check's (" + MAX_MESSAGE + " bytes)");
                    }
                    message.writeBytes(frame.payload());
                    if (frame.endStream()) {
                        throw new ProbeFailure("malformed gRPC answer (it ended without a grpc-status)");
                    }
                }
            }
            return verdict(trailers, message.toByteArray(), what);
        } finally {
            http2.close();
        }
    }

    private static Http2Connection.Frame firstHeaders(Http2Connection http2) throws ProbeFailure {
        Http2Connection.Frame frame = http2.next();
        if (frame.type() != Http2Connection.HEADERS) {
            throw new ProbeFailure("malformed HTTP/2 answer (data before headers)");
        }
        return frame;
    }

    private static String verdict(Http2Connection.Headers trailers, byte[] message, String what) throws ProbeFailure {
        String grpcStatus = trailers.get("grpc-status");
        int code = parseStatus(grpcStatus);
        String grpcMessage = percentDecoded(trailers.get("grpc-message"));
        if (code != 0) {
            String name = code < STATUS_NAMES.length ? STATUS_NAMES[code] : "status " + code;
            throw new ProbeFailure(switch (name) {
                case "UNIMPLEMENTED" -> "the server has no gRPC health service (UNIMPLEMENTED); probe it with tcp:// or "
                        + "http:// instead";
                case "NOT_FOUND" -> "the health service does not know " + what + " (NOT_FOUND)";
                default -> "gRPC " + name + (grpcMessage.isEmpty() ? "" : ": " + ProbeFailure.abbreviate(grpcMessage))
                        + (grpcMessage.contains("upstream") ? " (a proxy with no upstream?)" : "");
            });
        }
        int serving = servingStatus(message);
        String state = serving < SERVING_STATUSES.length ? SERVING_STATUSES[serving] : "status " + serving;
        if (serving == 1) {
            return "SERVING";
        }
        throw new ProbeFailure("gRPC health: " + what + " is " + state);
    }

    private static int parseStatus(String grpcStatus) throws ProbeFailure {
        if (grpcStatus == null) {
            throw new ProbeFailure("malformed gRPC answer (no grpc-status)");
        }
        if (!grpcStatus.matches("[0-9]{1,3}")) {
            throw new ProbeFailure("malformed gRPC answer (grpc-status '" + ProbeFailure.abbreviate(grpcStatus) + "')");
        }
        return Integer.parseInt(grpcStatus);
    }

    /** A length-prefixed message holding a HealthCheckResponse: field 1, the ServingStatus enum. */
    static int servingStatus(byte[] message) throws ProbeFailure {
        if (message.length < 5) {
            throw new ProbeFailure("malformed gRPC answer (no message)");
        }
        if (message[0] != 0) {
            throw new ProbeFailure("malformed gRPC answer (a compressed message, which was not asked for)");
        }
        long length = BigEndian.uint32(message, 1);
        if (length != message.length - 5) {
            throw new ProbeFailure("malformed gRPC answer (a message of " + (message.length - 5) + " bytes, announced "
                    + length + ")");
        }
        int status = 0; // proto3: an absent field has its default, UNKNOWN
        int[] at = {5};
        while (at[0] < message.length) {
            long key = varint(message, at);
            int wireType = (int) (key & 7);
            if (key >>> 3 == 1 && wireType == 0) {
                long value = varint(message, at);
                status = value < 0 || value > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) value;
            } else {
                skip(message, at, wireType);
            }
        }
        return status;
    }

    private static long varint(byte[] bytes, int[] at) throws ProbeFailure {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at[0] >= bytes.length) {
                throw new ProbeFailure("malformed gRPC answer (a number runs past the end)");
            }
            int b = bytes[at[0]++] & 0xff;
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new ProbeFailure("malformed gRPC answer (a number longer than 64 bits)");
    }

    private static void skip(byte[] bytes, int[] at, int wireType) throws ProbeFailure {
        long length = switch (wireType) {
            case 0 -> {
                varint(bytes, at);
                yield 0;
            }
            case 1 -> 8;
            case 2 -> varint(bytes, at);
            case 5 -> 4;
            default -> throw new ProbeFailure("malformed gRPC answer (protobuf wire type " + wireType + ")");
        };
        if (length < 0 || length > bytes.length - at[0]) {
            throw new ProbeFailure("malformed gRPC answer (a field runs past the end)");
        }
        at[0] += (int) length;
    }

    /** The start of a body the server sent with a non-gRPC answer, for the message; never fails. */
    private static String body(Http2Connection http2, Http2Connection.Headers headers) {
        if (headers.endStream()) {
            return "";
        }
        try {
            Http2Connection.Frame frame = http2.next();
            String text = frame.type() == Http2Connection.DATA
                    ? new String(frame.payload(), StandardCharsets.UTF_8).strip() : "";
            return text.isEmpty() ? "" : ": '" + ProbeFailure.abbreviate(text) + "'";
        } catch (ProbeFailure nothingMore) {
            return "";
        }
    }

    static List<Hpack.Field> requestHeaders(String host, int port, long millisLeft) {
        String authority = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        return List.of(new Hpack.Field(":method", "POST"), new Hpack.Field(":scheme", "http"),
                new Hpack.Field(":path", PATH), new Hpack.Field(":authority", authority),
                new Hpack.Field("content-type", "application/grpc"), new Hpack.Field("te", "trailers"),
                new Hpack.Field("grpc-timeout", Math.max(1, Math.min(millisLeft, 99_999_999)) + "m"),
                new Hpack.Field("user-agent", "sidecar-wait/" + Version.VERSION));
    }

    /** A length-prefixed, uncompressed HealthCheckRequest: field 1, the service name (absent when empty). */
    static byte[] request(String service) {
        byte[] name = service.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream proto = new ByteArrayOutputStream();
        if (name.length > 0) {
            proto.write(0x0a);
            for (int length = name.length; ; length >>>= 7) {
                if (length < 0x80) {
                    proto.write(length);
                    break;
                }
                proto.write(length & 0x7f | 0x80);
            }
            proto.writeBytes(name);
        }
        byte[] body = proto.toByteArray();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write(0);
        BigEndian.int32(message, body.length);
        message.writeBytes(body);
        return message.toByteArray();
    }

    /** grpc-message is percent-encoded UTF-8 (gRPC over HTTP/2, "Responses"). */
    static String percentDecoded(String value) {
        if (value == null) {
            return "";
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            int high = i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
            int low = i + 2 < value.length() ? Character.digit(value.charAt(i + 2), 16) : -1;
            if (c == '%' && high >= 0 && low >= 0) {
                bytes.write(high << 4 | low);
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
