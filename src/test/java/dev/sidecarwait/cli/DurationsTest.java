package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @Test
    void parsesEachUnitAndCombinations() {
        assertEquals(Duration.ofMillis(250), Durations.parse("250ms"));
        assertEquals(Duration.ofSeconds(90), Durations.parse("90s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ofSeconds(90), Durations.parse("1m30s"));
        assertEquals(Duration.ofMillis(1500), Durations.parse(" 1s500ms "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "5x", "s", "1.5s", "5 s", "ms5", "-5s", "1s-", "99999999999999999999s"})
    void refusesWhatIsNotADuration(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void formatsTheShortestExactForm() {
        assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
        assertEquals("2m", Durations.format(Duration.ofSeconds(120)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("1h", Durations.format(Duration.ofMinutes(60)));
    }

    @Test
    void speaksInSecondsLikePilotAgent() {
        assertEquals("60 seconds", dev.sidecarwait.output.Seconds.of(Duration.ofSeconds(60)));
        assertEquals("1 second", dev.sidecarwait.output.Seconds.of(Duration.ofSeconds(1)));
        assertEquals("2.5 seconds", dev.sidecarwait.output.Seconds.of(Duration.ofMillis(2500)));
    }
}
