package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What to probe: an HTTP endpoint (ready = the expected status), a TCP port (ready = the connection is
 * accepted), a TLS server (ready = a verified handshake), or a server that must answer its own protocol (redis://,
 * postgres://, mysql://, grpc://, kafka://, amqp://, nats://); a file another container writes (file://), a Unix
 * socket (unix://), and HTTP or PostgreSQL over one. https://, rediss://, grpcs:// and amqps:// are their plain
 * scheme's probe over TLS; postgres:// takes libpq's sslmode. k8s:// is an object of the pod's own cluster.
 */
public sealed interface Target permits Target.Http, Target.Tcp, Target.Tls, Target.Server, Target.Listening, Target.Dns,
        Target.InPod, Target.Kube {

    String host();

    int port();

    /** As the user wrote it, for messages. */
    String text();

    /** "http", "tcp", or the server's protocol: for JSON output. */
    String kind();

    /** An http:// URL on a loopback address, as a proxy's own readiness endpoints are (Mesh.ownEndpoint says whose). */
    default boolean proxyEndpoint() {
        return this instanceof Http http && http.socket() == null
                && List.of("localhost", "127.0.0.1", "::1").contains(host().toLowerCase(Locale.ROOT));
    }

    /**
     * {@code socket}: the Unix socket the request goes over (http+unix://), else null; {@code tls}: OFF, or https://'s;
     * {@code basic}: the URL's user and password, else null.
     */
    record Http(String host, int port, String path, String text, Path socket, TlsMode tls, BasicCredentials basic)
            implements Target {
        public Http(String host, int port, String path, String text) {
            this(host, port, path, text, null, TlsMode.OFF, null);
        }

        public Http(String host, int port, String path, String text, Path socket) {
            this(host, port, path, text, socket, TlsMode.OFF, null);
        }

        /** This request to another path or server (a redirect): the credentials go only to the same scheme, host and port. */
        Http redirected(Http next) {
            boolean same = next.host.equalsIgnoreCase(host) && next.port == port && next.tls.tls() == tls.tls();
            return new Http(next.host, next.port, next.path, next.text, next.socket, next.tls, same ? basic : null);
        }

        @Override
        public String kind() {
            return tls.tls() ? "https" : "http";
        }
    }

    /** A TLS server with no protocol of its own to ask (tls://HOST:PORT): ready once a verified handshake completes. */
    record Tls(String host, int port, String text) implements Target {
        @Override
        public String kind() {
            return "tls";
        }
    }

    record Tcp(String host, int port, String text) implements Target {
        @Override
        public String kind() {
            return "tcp";
        }
    }

    /**
     * {@code path}: what the check asks about (gRPC: the service), empty for the others, which ignore a path.
     * {@code socket}: the Unix socket the server is reached on (postgres:///db?host=/dir), else null.
     */
    record Server(Protocol protocol, String host, int port, String path, String text, Path socket, TlsMode tls) implements Target {
        public Server(Protocol protocol, String host, int port, String path, String text) {
            this(protocol, host, port, path, text, null, TlsMode.OFF);
        }

        public Server(Protocol protocol, String host, int port, String path, String text, Path socket) {
            this(protocol, host, port, path, text, socket, TlsMode.OFF);
        }

        @Override
        public String kind() {
            return protocol.scheme + (tls.tls() && protocol.tlsScheme != null ? "s" : "");
        }
    }

    /** A path in the pod itself: no host, no port. */
    sealed interface InPod extends Target permits File, Unix {
        Path path();

        @Override
        default String host() {
            return "";
        }

        @Override
        default int port() {
            return 0;
        }
    }

    /** A file another container writes (a rendered secret, a marker on a shared volume): ready once it is there. */
    record File(Path path, String text) implements InPod {
        @Override
        public String kind() {
            return "file";
        }
    }

    /** A Unix socket: ready once a connection to it is accepted. */
    record Unix(Path path, String text) implements InPod {
        @Override
        public String kind() {
            return "unix";
        }
    }

    /**
     * A name that must resolve through the pod's DNS to at least one address (dns://orders-db): the Service, or a
     * StatefulSet pod's record, exists. Nothing is connected to.
     */
    record Dns(String host, String text) implements Target {
        @Override
        public int port() {
            return 0;
        }

        @Override
        public String kind() {
            return "dns";
        }
    }

    /**
     * Ports that must have a listening socket in this pod's network namespace (read from /proc/net/tcp and tcp6,
     * not connected to): sockets another process (ztunnel, on the node) opened in the pod. Not written as a URL.
     */
    record Listening(List<Integer> ports, String text) implements Target {
        public Listening {
            ports = List.copyOf(ports);
        }

        @Override
        public String host() {
            return "localhost";
        }

        @Override
        public int port() {
            return ports.get(0);
        }

        @Override
        public String kind() {
            return "sockets";
        }
    }

    /**
     * An object of the pod's own cluster, asked of its API server (k8s://job/migrate): ready as its kind says (a Job
     * complete, a Service with ready endpoints, a rollout done, pods Ready) or as its condition says.
     */
    record Kube(KubeQuery query, String text) implements Target {
        @Override
        public String host() {
            return "";
        }

        @Override
        public int port() {
            return 0;
        }

        @Override
        public String kind() {
            return "k8s";
        }
    }

    String SCHEMES = "http://, https://, tcp://, tls://, dns://, file://, unix://, http+unix://, redis://, rediss://, "
            + "postgres://, mysql://, grpc://, grpcs://, kafka://, amqp://, amqps://, nats:// or k8s://";

    /** Whether the target speaks TLS (https://, tls://, rediss://, ... or a postgres:// sslmode other than disable). */
    default boolean usesTls() {
        return this instanceof Tls || this instanceof Http http && http.tls().tls() || this instanceof Server server && server.tls().tls();
    }

    /**
     * Whether the server is verified against the trusted CAs unless --insecure (every TLS scheme; sslmode verify-ca
     * and verify-full): the CAs must then hold one that this client can use.
     */
    default boolean verifiesTls() {
        return this instanceof Tls || this instanceof Http http && http.tls().verifiesChain()
                || this instanceof Server server && server.tls().verifiesChain();
    }

    /**
     * Whether the URL asks in its own words for its server to be verified (PostgreSQL's sslmode=verify-ca or
     * verify-full, MySQL's ssl-mode=VERIFY_CA or VERIFY_IDENTITY), which --insecure would contradict.
     */
    default boolean asksVerification() {
        return this instanceof Server server && (server.protocol() == Protocol.POSTGRES || server.protocol() == Protocol.MYSQL)
                && server.tls().verifiesChain();
    }

    /**
     * User information is sent by http:// and https:// (Basic authentication) and taken but never sent by the servers
     * whose own clients read it (redis, postgres, mysql, amqp, nats); other schemes refuse it.
     */
    static String userInfoRefused(String scheme) {
        return "a " + scheme + ":// URL here sends no user or password; leave them out";
    }

    /** {@code text} with the user information of every URL in it replaced by ***, for messages that quote a value. */
    static String redacted(String text) {
        return text.replaceAll("(?i)\\b([a-z][a-z0-9+.-]*://)[^/?#\\s']*@", "$1***@");
    }

    /** Parses a target; the exception's message says what is wrong, without repeating the value. */
    static Target parse(String text) {
        return TargetParser.parse(text, "http://host:port/path or tcp://host:port", SCHEMES, true);
    }

    /**
     * As {@link #parse}, for a setting that takes only http:// (the admin API, a quit URL): a missing or unknown
     * scheme is answered with that alone. Another scheme we know still parses, for the caller to refuse with its
     * own reason. A user or password is refused: none is sent there.
     */
    static Target parseHttpSetting(String text) {
        return TargetParser.parse(text, "http://host:port/path", "http://host:port/path", false);
    }
}
