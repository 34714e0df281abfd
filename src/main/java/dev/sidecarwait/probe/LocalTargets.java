package dev.sidecarwait.probe;

import java.nio.file.Path;

/**
 * The targets that name a path in the pod rather than a host: file:///path (a file another container writes),
 * unix:///path (a Unix socket), http+unix://%2Fpath%2Fto.sock/readiness/path (HTTP over a Unix socket, as
 * requests-unixsocket and docker-py spell it: the socket's path percent-encoded as the host), and PostgreSQL on a Unix
 * socket as libpq spells it, postgres:///db?host=/directory (the socket is DIRECTORY/.s.PGSQL.PORT, port 5432 unless
 * ?port= says otherwise; libpq's "Connection URIs"). Every path is absolute: a relative one would depend on the
 * directory the tool runs in.
 */
final class LocalTargets {

    private LocalTargets() {
    }

    static Target parse(String scheme, UrlParts url, String text) {
        if (url.userInfo != null) {
            throw new IllegalArgumentException(Target.userInfoRefused(scheme));
        }
        if (scheme.equals("http+unix")) {
            return httpOnSocket(url, text);
        }
        if (url.query != null || url.fragment != null) {
            throw new IllegalArgumentException("a " + scheme + ":// target takes no query or fragment: " + example(scheme));
        }
        String decoded = UrlParts.decoded(url.path);
        if (url.opaque || url.authority != null && !url.authority.isEmpty() || !decoded.startsWith("/") || decoded.equals("/")
                || decoded.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a " + scheme + ":// target is an absolute path after three slashes: "
                    + example(scheme));
        }
        Path path = Path.of(decoded).normalize();
        if (path.getNameCount() == 0) { // file:/. and the like: the root itself
            throw new IllegalArgumentException("a " + scheme + ":// target is an absolute path after three slashes: "
                    + example(scheme));
        }
        return scheme.equals("file") ? new Target.File(path, text) : new Target.Unix(path, text);
    }

    private static String example(String scheme) {
        return switch (scheme) {
            case "file" -> "file:///vault/secrets/db-creds";
            case "unix" -> "unix:///run/spire/sockets/agent.sock";
            default -> "http+unix://%2Fshared%2Fdapr-myapp-http.socket/v1.0/healthz/outbound";
        };
    }

    /** The socket's path is the authority, percent-encoded; the rest is the request's path. */
    private static Target.Http httpOnSocket(UrlParts url, String text) {
        String socket = url.authority == null ? null : UrlParts.decoded(url.authority);
        if (socket == null || !socket.startsWith("/") || socket.indexOf('\0') >= 0 || Path.of(socket).normalize().getNameCount() == 0) {
            throw new IllegalArgumentException("an http+unix:// target names the socket's absolute path, "
                    + "percent-encoded, as its host: " + example("http+unix"));
        }
        if (url.fragment != null) {
            throw new IllegalArgumentException("an http+unix:// target takes no fragment: " + example("http+unix"));
        }
        String path = url.path.isEmpty() ? "/" : UrlParts.requestForm(url.path, "path");
        if (url.query != null) {
            path += "?" + UrlParts.requestForm(url.query, "query");
        }
        return new Target.Http("localhost", 80, path, text, Path.of(socket).normalize());
    }

    /**
     * The directory of ?host= (libpq: a host that starts with a slash is a socket directory), else null. A host name
     * there is refused: libpq would connect to it rather than to the URL's host, and the probe must ask the same server.
     */
    static String socketDirectory(UrlParts url) {
        String host = UrlQuery.value(url.query, "host");
        if (host != null && !host.startsWith("/")) {
            throw new IllegalArgumentException("?host= names a socket directory (postgres:///orders?host=/cloudsql/"
                    + "project:region:instance); give a host name in the URL: postgres://orders-db/orders");
        }
        return host;
    }

    static Target.Server postgresOnSocket(UrlParts url, String text) {
        if (url.authority != null && !url.authority.isEmpty()) {
            throw new IllegalArgumentException("give PostgreSQL's host once: a host name in the URL, or a socket "
                    + "directory as ?host=/dir (postgres:///db?host=/cloudsql/project:region:instance)");
        }
        String port = UrlQuery.value(url.query, "port");
        if (port != null && !port.matches("[1-9][0-9]{0,4}") || port != null && Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("port '" + port + "' is not a number from 1 to 65535");
        }
        TlsParameters.mode(Protocol.POSTGRES, url.query); // checked; libpq uses no TLS over a Unix socket
        int number = port == null ? Protocol.POSTGRES.defaultPort : Integer.parseInt(port);
        Path socket = Path.of(socketDirectory(url)).normalize().resolve(".s.PGSQL." + number);
        return new Target.Server(Protocol.POSTGRES, "localhost", number, "", text, socket);
    }
}
