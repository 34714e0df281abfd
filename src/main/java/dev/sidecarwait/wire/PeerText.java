package dev.sidecarwait.wire;

/**
 * Text a peer controls (a certificate's names, an HTTP status line, a server's greeting) made fit to show: every
 * control character written as an escape ("\n", "\x1b", "\u2028") rather than obeyed by a terminal or a log reader,
 * and the whole cut to a length. What a peer sends is shown, never taken as a line, a colour or a field of its own.
 */
public final class PeerText {

    private static final String HEX = "0123456789abcdef";

    private PeerText() {
    }

    /** {@code text} with its control characters escaped, at most {@code max} characters of it (then "..."). */
    public static String shown(String text, int max) {
        StringBuilder shown = new StringBuilder(Math.min(text.length(), max) + 8);
        for (int i = 0; i < text.length(); i++) {
            if (shown.length() >= max) {
                return shown.append("...").toString();
            }
            escape(text.charAt(i), shown);
        }
        return shown.toString();
    }

    /** {@code text} with its control characters escaped, whole: for a line that holds text from anywhere. */
    public static String printable(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return shown(text, Integer.MAX_VALUE);
            }
        }
        return text;
    }

    /**
     * C0 and C1 controls and DEL; the line and paragraph separators, which some readers take as a line's end; and
     * the bidirectional overrides and isolates, which reorder what a terminal shows.
     */
    public static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029' || c >= '\u202a' && c <= '\u202e'
                || c >= '\u2066' && c <= '\u2069';
    }

    private static void escape(char c, StringBuilder into) {
        if (!isControl(c)) {
            into.append(c);
        } else if (c == '\n') {
            into.append("\\n");
        } else if (c == '\r') {
            into.append("\\r");
        } else if (c == '\t') {
            into.append("\\t");
        } else if (c <= 0xff) {
            into.append("\\x").append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 15));
        } else {
            into.append("\\u").append(HEX.charAt(c >> 12)).append(HEX.charAt(c >> 8 & 15)).append(HEX.charAt(c >> 4 & 15))
                    .append(HEX.charAt(c & 15));
        }
    }
}
