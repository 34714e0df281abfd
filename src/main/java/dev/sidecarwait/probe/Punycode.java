package dev.sidecarwait.probe;

/**
 * An internationalised host name as DNS holds it: each label with a character beyond ASCII lower-cased and written in
 * Punycode (RFC 3492) after "xn--", as IDNA's ToASCII writes it. The mapping is lower case alone, not UTS #46's whole
 * table (java.net.IDN's tables would add 190 kB to the binary): a name is taken as people type it, in NFC, and a
 * label holding anything but letters, marks and digits is refused rather than guessed at.
 */
final class Punycode {

    private static final int BASE = 36;
    private static final int T_MIN = 1;
    private static final int T_MAX = 26;

    private Punycode() {
    }

    /** {@code host} with every non-ASCII label encoded; the ideographic full stops count as dots, as in IDNA. */
    static String toAscii(String host) {
        StringBuilder ascii = new StringBuilder();
        for (String label : host.replace('\u3002', '.').replace('\uff0e', '.').replace('\uff61', '.').split("\\.", -1)) {
            if (!ascii.isEmpty()) {
                ascii.append('.');
            }
            ascii.append(isAscii(label) ? label : "xn--" + encode(mapped(label, host)));
        }
        return ascii.toString();
    }

    static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static int[] mapped(String label, String host) {
        int[] points = new int[label.codePointCount(0, label.length())];
        for (int i = 0, at = 0; i < points.length; at += Character.charCount(label.codePointAt(at)), i++) {
            points[i] = Character.toLowerCase(label.codePointAt(at));
        }
        for (int i = 0; i < points.length; i++) {
            int type = Character.getType(points[i]);
            boolean mark = type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                    || type == Character.ENCLOSING_MARK;
            if (points[i] >= 0x80 && !Character.isLetterOrDigit(points[i]) && !(mark && i > 0)) {
                throw new IllegalArgumentException("the host '" + host + "' holds '" + Character.toString(points[i])
                        + "' (U+" + Integer.toHexString(points[i]).toUpperCase(java.util.Locale.ROOT)
                        + "), which no internationalised name holds");
            }
        }
        return points;
    }

    /** RFC 3492 section 6.3, for a label short enough (DNS's 63 bytes) that no figure overflows. */
    private static String encode(int[] points) {
        StringBuilder out = new StringBuilder();
        for (int c : points) {
            if (c < 0x80) {
                out.append((char) c);
            }
        }
        int basic = out.length();
        if (basic > 0) {
            out.append('-');
        }
        int n = 0x80;
        int delta = 0;
        int bias = 72;
        for (int handled = basic; handled < points.length; delta++, n++) {
            int next = Integer.MAX_VALUE;
            for (int c : points) {
                if (c >= n && c < next) {
                    next = c;
                }
            }
            delta += (next - n) * (handled + 1);
            n = next;
            for (int c : points) {
                if (c < n) {
                    delta++;
                } else if (c == n) {
                    int q = delta;
                    for (int k = BASE; ; k += BASE) {
                        int t = k <= bias ? T_MIN : Math.min(k - bias, T_MAX);
                        if (q < t) {
                            break;
                        }
                        out.append(digit(t + (q - t) % (BASE - t)));
                        q = (q - t) / (BASE - t);
                    }
                    out.append(digit(q));
                    bias = adapt(delta, handled + 1, handled == basic);
                    delta = 0;
                    handled++;
                }
            }
        }
        return out.toString();
    }

    private static int adapt(int delta, int points, boolean first) {
        int d = first ? delta / 700 : delta / 2;
        d += d / points;
        int k = 0;
        while (d > (BASE - T_MIN) * T_MAX / 2) {
            d /= BASE - T_MIN;
            k += BASE;
        }
        return k + (BASE - T_MIN + 1) * d / (d + 38);
    }

    private static char digit(int d) {
        return (char) (d < 26 ? 'a' + d : '0' + d - 26);
    }
}
