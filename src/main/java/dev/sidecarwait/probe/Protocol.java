package dev.sidecarwait.probe;

import dev.sidecarwait.grpc.GrpcHealthCheck;

/**
 * The dependencies whose readiness is checked by a short exchange that only the real server can answer: a
 * mesh proxy accepts a TCP connection whether or not the server behind it is up, so tcp:// through a sidecar
 * proves only that the sidecar is.
 */
public enum Protocol {
    REDIS("redis", 6379),
    POSTGRES("postgres", 5432),
    MYSQL("mysql", 3306),
    GRPC("grpc", 0),
    KAFKA("kafka", 9092),
    AMQP("amqp", 5672),
    NATS("nats", 4222);

    public final String scheme;
    /** 0 where there is none and the URL must give the port (gRPC servers listen anywhere). */
    public final int defaultPort;

    Protocol(String scheme, int defaultPort) {
        this.scheme = scheme;
        this.defaultPort = defaultPort;
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
