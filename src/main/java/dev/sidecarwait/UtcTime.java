package dev.sidecarwait;

import java.time.Instant;

/**
 * RFC 3339 UTC timestamps, "2026-11-22T06:53:10.353784Z", written by hand: java.time's formatter drags in its
 * whole formatting and locale machinery (some 70 classes on the JVM, and more in a native image) for one line.
 */
public final class UtcTime {

    private UtcTime() {
    }

    /** With microseconds, always six digits (Istio's log layout). */
    public static String micros(Instant at) {
        return format(at, at.getNano() / 1_000, 6);
    }

    /** With milliseconds, always three digits. */
    public static String millis(Instant at) {
        return format(at, at.getNano() / 1_000_000, 3);
    }

    /** To the second: "2026-11-22T06:53:10Z" (a certificate's validity). */
    public static String seconds(Instant at) {
        return format(at, 0, 0);
    }

    /** The instant of a UTC date and time (Howard Hinnant's days_from_civil): no java.time zone or chronology. */
    public static Instant of(int year, int month, int day, int hour, int minute, int second) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        long days = era * 146_097 + dayOfEra - 719_468;
        return Instant.ofEpochSecond(days * 86_400 + hour * 3600L + minute * 60L + second);
    }

    private static String format(Instant at, int fraction, int digits) {
        long seconds = at.getEpochSecond();
        long days = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil, inverted).
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        StringBuilder text = new StringBuilder(32);
        pad(text, year, 4).append('-');
        pad(text, month, 2).append('-');
        pad(text, day, 2).append('T');
        pad(text, secondOfDay / 3600, 2).append(':');
        pad(text, secondOfDay / 60 % 60, 2).append(':');
        pad(text, secondOfDay % 60, 2);
        if (digits > 0) {
            pad(text.append('.'), fraction, digits);
        }
        return text.append('Z').toString();
    }

    private static StringBuilder pad(StringBuilder text, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(digits);
    }
}
