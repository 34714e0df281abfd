package dev.sidecarwait.probe;

import dev.sidecarwait.grpc.GrpcHealthCheck;

/**
 * The dependencies whose readiness is checked by a short exchange that only the real server can answer: a
 * mesh proxy accepts a TCP connection whether or not the server behind it is up, so tcp:// through a sidecar
 * proves only that the sidecar is.
 */
public enum Protocol {
    REDIS("redis", 6379, "rediss", 6379),
    POSTGRES("postgres", 5432, null, 0),
    MYSQL("mysql", 3306, null, 0),
    GRPC("grpc", 0, "grpcs", 0),
    KAFKA("kafka", 9092, null, 0),
    AMQP("amqp", 5672, "amqps", 5671),
    NATS("nats", 4222, null, 0);

    public final String scheme;
    /** 0 where there is none and the URL must give the port (gRPC servers listen anywhere). */
    public final int defaultPort;
    /** The scheme of the protocol over TLS from the first byte (rediss://), or null where there is none here. */
    public final String tlsScheme;
    public final int defaultTlsPort;

    Protocol(String scheme, int defaultPort, String tlsScheme, int defaultTlsPort) {
        this.scheme = scheme;
        this.defaultPort = defaultPort;
        this.tlsScheme = tlsScheme;
        this.defaultTlsPort = defaultTlsPort;
    }

    /** The protocol whose TLS scheme this is (rediss: REDIS), or null. */
    static Protocol ofTlsScheme(String scheme) {
        for (Protocol protocol : values()) {
            if (scheme.equals(protocol.tlsScheme)) {
                return protocol;
            }
        }
        return null;
    }

    /** The application protocol a TLS connection offers (ALPN): gRPC's HTTP/2 needs "h2". */
    String alpn() {
        return this == GRPC ? "h2" : null;
    }

    /** The protocol of a URL scheme ("postgresql" too, as libpq spells it), or null. */
    static Protocol ofScheme(String scheme) {
        return switch (scheme) {
            case "redis" -> REDIS;
            case "postgres", "postgresql" -> POSTGRES;
            case "mysql" -> MYSQL;
            case "grpc" -> GRPC;
            case "kafka" -> KAFKA;
            case "amqp" -> AMQP;
            case "nats" -> NATS;
            default -> null;
        };
    }

    Handshake handshake() {
        return switch (this) {
            case REDIS -> new RedisPing();
            case POSTGRES -> new PostgresStartup();
            case MYSQL -> new MysqlHandshake();
            case GRPC -> (wire, target) -> new GrpcHealthCheck().exchange(wire, target.host(), target.port(), target.path());
            case KAFKA -> new KafkaApiVersions();
            case AMQP -> new AmqpHandshake();
            case NATS -> new NatsPing();
        };
    }
}
