package dev.sidecarwait.kube;

import java.nio.charset.StandardCharsets;

/** A value put into a request's query: every byte but RFC 3986's unreserved ones percent-encoded. */
final class QueryText {

    private static final String HEX = "0123456789ABCDEF";

    private QueryText() {
    }

    static String encoded(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 15));
            }
        }
        return out.toString();
    }
}
