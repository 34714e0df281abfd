package dev.sidecarwait.probe;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The user and password of an http:// or https:// URL, sent as Basic authentication (RFC 7617) as Go's client sends
 * them for pilot-agent: percent-decoded (RFC 3986), UTF-8, a missing password sent as empty. Never shown: a URL that
 * holds them is written everywhere with its user information replaced by ***.
 */
public final class BasicCredentials {

    private final String header;

    private BasicCredentials(String header) {
        this.header = header;
    }

    /** The credentials of a URL's raw user information ("user:password", percent-encoded). */
    static BasicCredentials of(String userInfo) {
        if (userInfo.indexOf('@') >= 0) {
            throw new IllegalArgumentException("an '@' in a user or password is written %40");
        }
        for (int i = 0; i < userInfo.length(); i++) {
            char c = userInfo.charAt(i);
            boolean escape = c == '%' && i + 2 < userInfo.length() && isHex(userInfo.charAt(i + 1)) && isHex(userInfo.charAt(i + 2));
            if (c == '%' && !escape || c != '%' && !(Character.isLetterOrDigit(c) && c < 0x80 || "-._~!$&'()*+,;=:".indexOf(c) >= 0)) {
                throw new IllegalArgumentException("the user or password holds a character that is written percent-encoded "
                        + "(a space as %20, '%' as %25, '/' as %2F)");
            }
        }
        String pair = UrlParts.decoded(userInfo.indexOf(':') < 0 ? userInfo + ":" : userInfo);
        return new BasicCredentials("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0 && c < 0x80;
    }

    /** The Authorization header's value. */
    String header() {
        return header;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BasicCredentials basic && basic.header.equals(header);
    }

    @Override
    public int hashCode() {
        return header.hashCode();
    }

    @Override
    public String toString() {
        return "Basic ***";
    }
}
