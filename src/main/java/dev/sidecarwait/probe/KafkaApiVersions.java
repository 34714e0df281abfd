package dev.sidecarwait.probe;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Kafka: an ApiVersions request, the first request every Kafka client sends (version 0, which every broker
 * answers: a client learns from it which versions to use). Ready when the answer is well formed, carries this
 * request's correlation id and error code 0. No topic, no credentials, nothing the broker logs.
 */
final class KafkaApiVersions implements Handshake {

    private static final int API_VERSIONS = 18;
    private static final int CORRELATION_ID = 0x5ca1ab1e;
    /** A v0 answer is 6 bytes per API; brokers have about 80. */
    private static final int MAX_RESPONSE = 64 * 1024;

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        wire.write(request());
        int size = int32(wire.next(4), 0);
        if (size < 6 || size > MAX_RESPONSE) {
            throw new ProbeFailure("answered, but not as Kafka (a response of " + size + " bytes)");
        }
        byte[] response = wire.next(size);
        if (int32(response, 0) != CORRELATION_ID) {
            throw new ProbeFailure("answered, but not as Kafka (another correlation id)");
        }
        int error = int16(response, 4);
        int count = size >= 10 ? int32(response, 6) : 0;
        if (count < -1 || count > (size - 10) / 6) {
            throw new ProbeFailure("answered, but not as Kafka (a list of " + count + " APIs in " + size + " bytes)");
        }
        if (error != 0) {
            throw new ProbeFailure("Kafka refused ApiVersions: error " + error + (error == 35 ? " UNSUPPORTED_VERSION" : ""));
        }
        return "Kafka broker, " + Math.max(count, 0) + " APIs";
    }

    /** Size, then request header v1 (api key, version, correlation id, client id); ApiVersions v0 has no body. */
    static byte[] request() {
        byte[] client = Handshake.THROWAWAY_USER.getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int16(body, API_VERSIONS);
        int16(body, 0);
        int32(body, CORRELATION_ID);
        int16(body, client.length);
        body.writeBytes(client);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        int32(request, body.size());
        request.writeBytes(body.toByteArray());
        return request.toByteArray();
    }

    private static void int16(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    private static void int32(ByteArrayOutputStream out, int value) {
        int16(out, value >>> 16);
        int16(out, value);
    }

    private static int int16(byte[] bytes, int at) {
        return (short) ((bytes[at] & 0xff) << 8 | (bytes[at + 1] & 0xff));
    }

    private static int int32(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8 | (bytes[at + 3] & 0xff);
    }
}
