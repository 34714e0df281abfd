package dev.sidecarwait.probe;

import dev.sidecarwait.wire.BigEndian;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
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
        int size = BigEndian.int32(wire.next(4), 0);
        if (size < 6 || size > MAX_RESPONSE) {
            throw new ProbeFailure("answered, but not as Kafka (a response of " + size + " bytes)");
        }
        byte[] response = wire.next(size);
        if (BigEndian.int32(response, 0) != CORRELATION_ID) {
            throw new ProbeFailure("answered, but not as Kafka (another correlation id)");
        }
        int error = BigEndian.int16(response, 4);
        int count = size >= 10 ? BigEndian.int32(response, 6) : 0;
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
        BigEndian.int16(body, API_VERSIONS);
        BigEndian.int16(body, 0);
        BigEndian.int32(body, CORRELATION_ID);
        BigEndian.int16(body, client.length);
        body.writeBytes(client);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        BigEndian.int32(request, body.size());
        request.writeBytes(body.toByteArray());
        return request.toByteArray();
    }
}
