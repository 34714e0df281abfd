package dev.sidecarwait.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Readable durations: a number and a unit (ms, s, m, h), optionally several: "500ms", "90s", "1m30s". */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");
    /** Longer makes no sense for a wait or a drain, and keeps every deadline within a long of nanoseconds. */
    static final Duration LONGEST = Duration.ofDays(365);
    public static final String HINT = "use a number and a unit: 500ms, 90s, 2m, 1h";

    private Durations() {
    }

    public static Duration parse(String text) {
        String value = text.trim();
        if (value.startsWith("-")) {
            throw new IllegalArgumentException("'" + text + "' is negative");
        }
        if (value.matches("\\d+")) {
            throw new IllegalArgumentException("'" + text + "' has no unit (" + HINT + ")");
        }
        Matcher matcher = PART.matcher(value);
        Duration total = Duration.ZERO;
        int at = 0;
        while (at < value.length() && matcher.find(at) && matcher.start() == at) {
            long amount;
            try {
                amount = Long.parseLong(matcher.group(1));
                total = total.plus(switch (matcher.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofHours(amount);
                });
            } catch (ArithmeticException | NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is too large");
            }
            at = matcher.end();
        }
        if (value.isEmpty() || at != value.length()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (" + HINT + ")");
        }
        if (total.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("'" + text + "' is too large (at most 8760h, a year)");
        }
        return total;
    }

    /** As {@link #parse}, for settings where zero makes no sense (a timeout, a period). */
    public static Duration parsePositive(String text) {
        Duration duration = parse(text);
        if (duration.isZero()) {
            throw new IllegalArgumentException("'" + text + "' must be more than zero");
        }
        return duration;
    }

    /** "90s", "1500ms", "2m": the shortest exact form. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0 && millis > 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis > 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0 && millis > 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
