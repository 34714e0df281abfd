package dev.sidecarwait.wire;

/**
 * Text a peer controls (a certificate's names, an HTTP status line, a server's greeting) made fit to show: every
 * control character written as an escape ("\n", "\x1b", "\u2028") rather than obeyed by a terminal or a log reader,
 * and the whole cut to a length. What a peer sends is shown, never taken as a line, a colour or a field of its own.
 */
public final class PeerText {

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
                StringBuilder shown = new StringBuilder(text.length() + 16).append(text, 0, i);
                for (int j = i; j < text.length(); j++) {
                    escape(text.charAt(j), shown);
                }
                return shown.toString();
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
            return;
        }
        switch (c) {
            case '\n' -> into.append("\\n");
            case '\r' -> into.append("\\r");
            case '\t' -> into.append("\\t");
            default -> {
                String hex = Integer.toHexString(c);
                into.append(c <= 0xff ? "\\x" + (hex.length() == 1 ? "0" : "") + hex : "\\u" + "0".repeat(4 - hex.length()) + hex);
            }
        }
    }
}
