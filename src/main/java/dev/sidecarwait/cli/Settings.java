package dev.sidecarwait.cli;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Resolves one duration setting from its two flag spellings, the environment and a default. */
final class Settings {

    private Settings() {
    }

    /**
     * The readable flag or pilot-agent's numeric one (giving both is a usage error), else the environment,
     * else the default. The flag's converter and the environment's parser both refuse zero.
     */
    static Duration duration(String flag, Duration value, String legacyFlag, Integer legacyValue, ChronoUnit legacyUnit,
                             Env env, String envName, Duration fallback) {
        if (value != null && legacyValue != null) { // only settings that have a pilot-agent spelling get here
            throw new UsageError(flag + " and " + legacyFlag + " set the same thing; give only one");
        }
        if (legacyValue != null) {
            if (legacyValue <= 0) {
                throw UsageError.invalid(legacyFlag, "'" + legacyValue + "' must be more than zero");
            }
            Duration given = Duration.of(legacyValue, legacyUnit);
            if (given.compareTo(Durations.LONGEST) > 0) {
                long largest = Durations.LONGEST.toSeconds() * (legacyUnit == ChronoUnit.MILLIS ? 1000 : 1);
                throw UsageError.invalid(legacyFlag, "'" + legacyValue + "' is too large: the largest accepted is "
                        + largest + " (a year)");
            }
            return given;
        }
        if (value != null) {
            return value;
        }
        Duration fromEnv = env.parse(envName, Durations::parsePositive);
        return fromEnv != null ? fromEnv : fallback;
    }
}
