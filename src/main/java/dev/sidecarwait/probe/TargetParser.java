package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/** A target's URL read into a {@link Target}; the exception's message says what is wrong, without repeating the value. */
final class TargetParser {

    private TargetParser() {
    }

    static Target parse(String text, String noSchemeHint, String schemesHint) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (List.of("file", "unix", "http+unix").contains(scheme)) {
            return LocalTargets.parse(scheme, uri, text);
        }
        if (scheme.isEmpty() || uri.isOpaque()) {
            throw new IllegalArgumentException("no scheme; use " + noSchemeHint);
        }
        Protocol protocol = Protocol.ofScheme(scheme);
        Protocol overTls = Protocol.ofTlsScheme(scheme);
        if (!List.of("http", "https", "tcp", "tls", "dns").contains(scheme) && protocol == null && overTls == null) {
            throw new IllegalArgumentException("scheme '" + scheme + "' is not supported; use " + schemesHint);
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(Target.USER_INFO_REFUSED);
        }
        if (protocol == Protocol.POSTGRES && LocalTargets.socketDirectory(uri) != null) {
            return LocalTargets.postgresOnSocket(uri, text);
        }
        String host = hostOf(uri, text);
        if (scheme.equals("dns")) {
            String authority = uri.getRawAuthority();
            if (!authority.equals(host) && !authority.equals("[" + host + "]") || (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/"))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("a dns:// target is a name and nothing else: dns://orders-db");
            }
            return new Target.Dns(host, text);
        }
        if (protocol != null || overTls != null) {
            return server(protocol != null ? protocol : overTls, overTls != null, uri, host, text, scheme);
        }
        int port = portOf(uri, text, scheme);
        if (scheme.equals("tcp") || scheme.equals("tls")) {
            String path = uri.getRawPath();
            if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null) {
                throw new IllegalArgumentException("a " + scheme + ":// target takes no path; use " + scheme + "://host:port");
            }
            return scheme.equals("tls") ? new Target.Tls(host, port, text) : new Target.Tcp(host, port, text);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        return new Target.Http(host, port, path, text, null, scheme.equals("https") ? TlsMode.VERIFY_FULL : TlsMode.OFF);
    }

    /**
     * A server's own protocol, over TLS from the first byte ({@code overTls}: rediss://) or as its URL's parameters
     * ask (PostgreSQL's sslmode, MySQL's ssl-mode). A path (a database name or number) and other parameters are
     * allowed, so an app's own URL can be pasted; the check does not use them.
     */
    private static Target.Server server(Protocol protocol, boolean overTls, URI uri, String host, String text, String scheme) {
        TlsMode tls = overTls ? TlsMode.VERIFY_FULL : TlsParameters.mode(protocol, uri.getRawQuery());
        if (protocol == Protocol.GRPC) {
            return grpc(uri, host, text, tls, scheme);
        }
        int defaultPort = overTls ? protocol.defaultTlsPort : protocol.defaultPort;
        return new Target.Server(protocol, host, uri.getPort() == -1 ? defaultPort : portOf(uri, text, scheme), "", text, null, tls);
    }

    /** grpc://host:port/service: the port is required, the path is the service name (none: the whole server). */
    private static Target.Server grpc(URI uri, String host, String text, TlsMode tls, String scheme) {
        if (uri.getPort() == -1) {
            throw new IllegalArgumentException("a " + scheme + ":// target needs a port");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a " + scheme + ":// target takes a service name and nothing else: "
                    + scheme + "://host:port/package.Service");
        }
        String service = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        if (service.contains("/")) {
            throw new IllegalArgumentException("'" + service + "' is not a gRPC service name (package.Service, no '/')");
        }
        return new Target.Server(Protocol.GRPC, host, portOf(uri, text, scheme), service, text, null, tls);
    }

    private static String hostOf(URI uri, String text) {
        String host = uri.getHost();
        if (host == null) {
            // URI falls back to a registry-based authority when the port is not a number or out of range.
            String authority = uri.getRawAuthority();
            if (authority != null && authority.matches("[^:]+:[^\\]]*$")) {
                String port = authority.substring(authority.lastIndexOf(':') + 1);
                throw new IllegalArgumentException("port '" + port + "' is not a number from 1 to 65535");
            }
            throw new IllegalArgumentException("no host");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host;
    }

    private static int portOf(URI uri, String text, String scheme) {
        int port = uri.getPort();
        if (port == -1) {
            if (scheme.equals("tcp") || scheme.equals("tls")) {
                throw new IllegalArgumentException("a " + scheme + ":// target needs a port");
            }
            return scheme.equals("https") ? 443 : 80;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port '" + port + "' is not a number from 1 to 65535");
        }
        return port;
    }
}
