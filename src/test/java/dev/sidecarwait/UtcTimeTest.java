package dev.sidecarwait;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written timestamps against java.time's own formatter, which the tests may use freely. */
class UtcTimeTest {

    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    @Test
    void matchesJavaTimeAcrossCenturiesLeapDaysAndDayBoundaries() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            Instant at = Instant.ofEpochSecond(random.nextLong(0, 253_402_300_800L), random.nextInt(1_000_000_000));
            assertEquals(MICROS.format(at), UtcTime.micros(at));
            assertEquals(MILLIS.format(at), UtcTime.millis(at));
        }
    }

    @Test
    void knownMoments() {
        assertEquals("1970-01-01T00:00:00.000000Z", UtcTime.micros(Instant.EPOCH));
        assertEquals("2000-02-29T23:59:59.999Z", UtcTime.millis(Instant.parse("2000-02-29T23:59:59.999999999Z")));
        assertEquals("2026-11-22T06:53:10.353784Z", UtcTime.micros(Instant.parse("2026-11-22T06:53:10.353784Z")));
        assertEquals("2100-03-01T00:00:00.000001Z", UtcTime.micros(Instant.parse("2100-03-01T00:00:00.000001Z")));
    }
}
