package dev.sidecarwait.probe;

import java.util.ArrayList;
import java.util.List;

/** Which HTTP status codes count as ready: a code, a list and ranges, e.g. "200", "200,204", "200-399". */
public final class ExpectedStatus {

    private final List<int[]> ranges;
    private final String text;

    private ExpectedStatus(List<int[]> ranges, String text) {
        this.ranges = ranges;
        this.text = text;
    }

    public static ExpectedStatus parse(String text) {
        List<int[]> ranges = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String item = part.trim();
            int dash = item.indexOf('-');
            int low = code(dash < 0 ? item : item.substring(0, dash));
            int high = dash < 0 ? low : code(item.substring(dash + 1));
            if (high < low) {
                throw new IllegalArgumentException("range '" + item + "' runs backwards");
            }
            ranges.add(new int[] {low, high});
        }
        return new ExpectedStatus(List.copyOf(ranges), text.trim());
    }

    private static int code(String digits) {
        String d = digits.trim();
        if (!d.matches("[0-9]{3}") || d.charAt(0) == '0') {
            throw new IllegalArgumentException("'" + d + "' is not an HTTP status code (100-599)");
        }
        int code = Integer.parseInt(d);
        if (code < 100 || code > 599) {
            throw new IllegalArgumentException("'" + d + "' is not an HTTP status code (100-599)");
        }
        return code;
    }

    public boolean matches(int status) {
        for (int[] range : ranges) {
            if (status >= range[0] && status <= range[1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
