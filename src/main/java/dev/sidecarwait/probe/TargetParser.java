package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import java.util.List;

/** A target's URL read into a {@link Target}; the exception's message says what is wrong, without repeating the value. */
final class TargetParser {

    private TargetParser() {
    }

    static Target parse(String text, String noSchemeHint, String schemesHint, boolean credentials) {
        UrlParts url = UrlParts.of(text.trim());
        String scheme = url.scheme;
        String shown = Target.redacted(text.trim());
        if (List.of("file", "unix", "http+unix").contains(scheme)) {
            return LocalTargets.parse(scheme, url, shown);
        }
        if (scheme.equals("k8s") && credentials) {
            return KubeTargets.parse(url, shown);
        }
        Protocol protocol = Protocol.ofScheme(scheme);
        Protocol overTls = Protocol.ofTlsScheme(scheme);
        boolean known = List.of("http", "https", "tcp", "tls", "dns").contains(scheme) || protocol != null || overTls != null;
        if (scheme.isEmpty() || url.opaque && !known) {
            throw new IllegalArgumentException("no scheme; use " + noSchemeHint);
        }
        if (!known) {
            throw new IllegalArgumentException("scheme '" + scheme + "' is not supported; use " + schemesHint);
        }
        if (url.opaque || url.authority == null && !(protocol == Protocol.POSTGRES && url.path.startsWith("/"))) {
            throw new IllegalArgumentException("no host: '" + scheme + ":' is followed by '//' and the host ("
                    + scheme + "://host:port/...)");
        }
        if (protocol == Protocol.POSTGRES && LocalTargets.socketDirectory(url) != null) {
            return LocalTargets.postgresOnSocket(url, shown);
        }
        if (url.authority == null) {
            throw new IllegalArgumentException("no host");
        }
        BasicCredentials basic = credentials(url.userInfo, scheme, protocol != null ? protocol : overTls, credentials);
        UrlHost address = UrlHost.of(url.authority);
        String host = address.host;
        if (scheme.equals("dns")) {
            if (address.port != -1 || url.authority.endsWith(":") || !url.path.isEmpty() && !url.path.equals("/") || url.query != null || url.fragment != null) {
                throw new IllegalArgumentException("a dns:// target is a name and nothing else: dns://orders-db");
            }
            return new Target.Dns(host, shown);
        }
        if (protocol != null || overTls != null) {
            return server(protocol != null ? protocol : overTls, overTls != null, url, address, shown, scheme);
        }
        int port = portOf(address.port, scheme);
        if (scheme.equals("tcp") || scheme.equals("tls")) {
            if (!url.path.isEmpty() && !url.path.equals("/") || url.query != null) {
                throw new IllegalArgumentException("a " + scheme + ":// target takes no path; use " + scheme + "://host:port");
            }
            return scheme.equals("tls") ? new Target.Tls(host, port, shown) : new Target.Tcp(host, port, shown);
        }
        String path = url.path.isEmpty() ? "/" : UrlParts.requestForm(url.path, "path");
        if (url.query != null) {
            path += "?" + UrlParts.requestForm(url.query, "query");
        }
        return new Target.Http(host, port, path, shown, null, scheme.equals("https") ? TlsMode.VERIFY_FULL : TlsMode.OFF, basic);
    }

    /**
     * An http:// or https:// URL's user and password, sent as Basic authentication; null for none, and for the servers
     * whose own clients' URLs carry them (an app's URL pasted as it is), which the probe takes and never sends.
     */
    private static BasicCredentials credentials(String userInfo, String scheme, Protocol protocol, boolean taken) {
        if (userInfo == null) {
            return null;
        }
        if (taken && (scheme.equals("http") || scheme.equals("https"))) {
            return BasicCredentials.of(userInfo);
        }
        if (!taken || protocol == null
                || !List.of(Protocol.REDIS, Protocol.POSTGRES, Protocol.MYSQL, Protocol.AMQP, Protocol.NATS).contains(protocol)) {
            throw new IllegalArgumentException(Target.userInfoRefused(scheme));
        }
        return null;
    }

    /**
     * A server's own protocol, over TLS from the first byte ({@code overTls}: rediss://) or as its URL's parameters
     * ask (PostgreSQL's sslmode, MySQL's ssl-mode). A path (a database name or number) and other parameters are
     * allowed, so an app's own URL can be pasted; the check does not use them.
     */
    private static Target.Server server(Protocol protocol, boolean overTls, UrlParts url, UrlHost address, String text,
                                        String scheme) {
        TlsMode tls = overTls ? TlsMode.VERIFY_FULL : TlsParameters.mode(protocol, url.query);
        if (protocol == Protocol.GRPC) {
            return grpc(url, address, text, tls, scheme);
        }
        int defaultPort = overTls ? protocol.defaultTlsPort : protocol.defaultPort;
        return new Target.Server(protocol, address.host, address.port == -1 ? defaultPort : address.port, "", text, null, tls);
    }

    /** grpc://host:port/service: the port is required, the path is the service name (none: the whole server). */
    private static Target.Server grpc(UrlParts url, UrlHost address, String text, TlsMode tls, String scheme) {
        if (address.port == -1) {
            throw new IllegalArgumentException("a " + scheme + ":// target needs a port");
        }
        if (url.query != null || url.fragment != null) {
            throw new IllegalArgumentException("a " + scheme + ":// target takes a service name and nothing else: "
                    + scheme + "://host:port/package.Service");
        }
        String service = UrlParts.decoded(url.path).replaceFirst("^/", "");
        if (service.contains("/")) {
            throw new IllegalArgumentException("'" + service + "' is not a gRPC service name (package.Service, no '/')");
        }
        return new Target.Server(Protocol.GRPC, address.host, address.port, service, text, null, tls);
    }

    private static int portOf(int port, String scheme) {
        if (port == -1) {
            if (scheme.equals("tcp") || scheme.equals("tls")) {
                throw new IllegalArgumentException("a " + scheme + ":// target needs a port");
            }
            return scheme.equals("https") ? 443 : 80;
        }
        return port;
    }
}
