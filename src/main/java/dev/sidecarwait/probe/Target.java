package dev.sidecarwait.probe;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * What to probe: an HTTP endpoint (ready = the expected status) or a TCP port (ready = the connection is
 * accepted). Only plain http:// and tcp:// are accepted; the proxies' readiness ports are plain HTTP on
 * localhost, and TLS would double the size of the native binary.
 */
public sealed interface Target permits Target.Http, Target.Tcp {

    String host();

    int port();

    /** As the user wrote it, for messages. */
    String text();

    record Http(String host, int port, String path, String text) implements Target {
    }

    record Tcp(String host, int port, String text) implements Target {
    }

    /** Parses a target; the exception's message says what is wrong, without repeating the value. */
    static Target parse(String text) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.isEmpty() || uri.isOpaque()) {
            throw new IllegalArgumentException("no scheme; use http://host:port/path or tcp://host:port");
        }
        if (!scheme.equals("http") && !scheme.equals("tcp")) {
            throw new IllegalArgumentException("scheme '" + scheme + "' is not supported; use http:// or tcp://"
                    + (scheme.equals("https") ? " (readiness ports are plain HTTP; TLS is left out to keep the binary small)" : ""));
        }
        String host = hostOf(uri, text);
        int port = portOf(uri, text, scheme);
        if (scheme.equals("tcp")) {
            String path = uri.getRawPath();
            if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null) {
                throw new IllegalArgumentException("a tcp:// target takes no path; use tcp://host:port");
            }
            return new Tcp(host, port, text);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        return new Http(host, port, path, text);
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
            if (scheme.equals("tcp")) {
                throw new IllegalArgumentException("a tcp:// target needs a port");
            }
            return 80;
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port '" + port + "' is not a number from 1 to 65535");
        }
        return port;
    }
}
