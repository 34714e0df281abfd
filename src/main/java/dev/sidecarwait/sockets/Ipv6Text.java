package dev.sidecarwait.sockets;

/** IPv6 addresses as people write them (RFC 5952): lower-case hex, the longest run of two or more zero groups as "::". */
public final class Ipv6Text {

    private Ipv6Text() {
    }

    /** {@code groups}: the address's eight 16-bit groups. */
    public static String of(int[] groups) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }
}
