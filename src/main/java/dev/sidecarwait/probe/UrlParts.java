package dev.sidecarwait.probe;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A URL cut into its raw parts as Go's net/url cuts one (pilot-agent's reader): the fragment at the first '#', the
 * scheme, the query at the first '?', the authority after "//" up to the next '/', and the user information up to the
 * authority's last '@'. Nothing is decoded or judged here but what no reader agrees on: control characters and a '\'
 * before the path.
 */
final class UrlParts {

    /**
     * A '%' without two hex digits after it: searched for, never a pattern matched over the whole path, since Java's
     * regex recurses once per repetition of a group and a long path overflowed the stack.
     */
    private static final Pattern BAD_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");

    /** Lower case; "" when the URL has none. */
    final String scheme;
    /** Raw, or null when there is no '@'. */
    final String userInfo;
    /** The host and port as written, or null when the URL has no "//". */
    final String authority;
    /** Raw; "" when none. */
    final String path;
    /** Raw, or null when there is no '?'. */
    final String query;
    /** Raw, or null when there is no '#'. */
    final String fragment;
    /** A scheme not followed by '/' (http:localhost:8080/, or a host:port read as a scheme). */
    final boolean opaque;

    private UrlParts(String scheme, String userInfo, String authority, String path, String query, String fragment,
                     boolean opaque) {
        this.scheme = scheme;
        this.userInfo = userInfo;
        this.authority = authority;
        this.path = path;
        this.query = query;
        this.fragment = fragment;
        this.opaque = opaque;
    }

    static UrlParts of(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < 0x20 || text.charAt(i) == 0x7f) {
                throw new IllegalArgumentException("a URL holds no control characters");
            }
        }
        String rest = text;
        String fragment = null;
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            fragment = rest.substring(hash + 1);
            rest = rest.substring(0, hash);
        }
        String scheme = "";
        if (rest.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
            scheme = rest.substring(0, rest.indexOf(':')).toLowerCase(Locale.ROOT);
            rest = rest.substring(rest.indexOf(':') + 1);
        }
        String query = null;
        int question = rest.indexOf('?');
        if (question >= 0) {
            query = rest.substring(question + 1);
            rest = rest.substring(0, question);
        }
        if (!rest.startsWith("//")) {
            return new UrlParts(scheme, null, null, rest, query, fragment, !scheme.isEmpty() && !rest.startsWith("/"));
        }
        int slash = rest.indexOf('/', 2);
        String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
        if (authority.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("a '\\' is not allowed before the path (readers disagree on where such "
                    + "a host ends); the path starts at '/'");
        }
        int at = authority.lastIndexOf('@');
        return new UrlParts(scheme, at < 0 ? null : authority.substring(0, at), authority.substring(at + 1),
                slash < 0 ? "" : rest.substring(slash), query, fragment, false);
    }

    /**
     * {@code raw} as an HTTP request sends it, as Go's client does: a space, a non-ASCII character (as UTF-8) and the
     * few characters a request line cannot hold are percent-encoded; everything else, escapes included, is sent as
     * written. A '%' in the path that starts no escape is refused, as Go refuses it; a query is sent as written.
     */
    static String requestForm(String raw, String part) {
        StringBuilder sent = new StringBuilder();
        for (byte b : raw.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c <= 0x20 || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0) {
                sent.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                sent.append((char) c);
            }
        }
        if (part.equals("path") && BAD_ESCAPE.matcher(sent).find()) {
            throw new IllegalArgumentException("a '%' in the path starts no escape of two hex digits; a percent sign is "
                    + "written %25");
        }
        return sent.toString();
    }

    /** {@code raw} with its %XX escapes decoded as UTF-8; a '%' that starts no escape stays as it is. */
    static String decoded(String raw) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] in = raw.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < in.length; i++) {
            int high = i + 2 < in.length && in[i] == '%' ? Character.digit(in[i + 1], 16) : -1;
            int low = high >= 0 ? Character.digit(in[i + 2], 16) : -1;
            if (low >= 0) {
                bytes.write(high * 16 + low);
                i += 2;
            } else {
                bytes.write(in[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * {@code reference} (a Location header) resolved against {@code base} (scheme://authority/path?query) as RFC 3986
     * section 5.2 resolves it, dot segments removed, as Go's URL.ResolveReference does for the kubelet's redirects.
     */
    static String resolved(String base, String reference) {
        if (reference.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
            return reference;
        }
        UrlParts from = of(base);
        String origin = from.scheme + "://" + from.authority;
        if (reference.startsWith("//")) {
            return from.scheme + ":" + reference;
        }
        String basePath = from.path.isEmpty() ? "/" : from.path;
        if (reference.isEmpty() || reference.startsWith("#")) {
            return origin + basePath + (from.query == null ? "" : "?" + from.query);
        }
        if (reference.startsWith("?")) {
            return origin + basePath + reference;
        }
        int end = reference.length();
        for (char stop : new char[] {'?', '#'}) {
            end = reference.indexOf(stop) >= 0 ? Math.min(end, reference.indexOf(stop)) : end;
        }
        String path = reference.startsWith("/") ? reference.substring(0, end)
                : basePath.substring(0, basePath.lastIndexOf('/') + 1) + reference.substring(0, end);
        return origin + withoutDots(path) + reference.substring(end);
    }

    /** RFC 3986 section 5.2.4: "." and ".." segments taken away, never above the root. */
    private static String withoutDots(String path) {
        java.util.ArrayDeque<String> kept = new java.util.ArrayDeque<>();
        String[] segments = path.split("/", -1);
        for (int i = 1; i < segments.length; i++) {
            boolean last = i == segments.length - 1;
            if (segments[i].equals("..")) {
                kept.pollLast();
            } else if (!segments[i].equals(".")) {
                kept.addLast(segments[i]);
                continue;
            }
            if (last) {
                kept.addLast("");
            }
        }
        return "/" + String.join("/", kept);
    }
}
