package dev.sidecarwait.cli;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Settings as a person or an environment gives them: durations and boolean variables. For any text, a value or a
 * refusal that names what is wrong (an IllegalArgumentException, or a UsageError naming the variable); never
 * another exception.
 */
class SettingsFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void duration(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        try {
            Duration parsed = Durations.parse(text);
            if (parsed.isNegative()) {
                throw new AssertionError("a negative duration from '" + text + "'");
            }
            if (!Durations.parse(Durations.format(parsed)).equals(Duration.ofMillis(parsed.toMillis()))) {
                throw new AssertionError("'" + Durations.format(parsed) + "' does not read back as " + parsed);
            }
            dev.sidecarwait.output.Seconds.of(parsed);
        } catch (IllegalArgumentException refused) {
            named(refused.getMessage());
        }
    }

    @FuzzTest(maxDuration = "15s")
    void booleanVariable(byte[] input) {
        Env env = new Env(Map.of("SIDECAR_WAIT_DISABLED", new String(input, StandardCharsets.UTF_8)));
        try {
            env.isTrue("SIDECAR_WAIT_DISABLED");
        } catch (UsageError refused) {
            if (!refused.getMessage().startsWith("invalid value for SIDECAR_WAIT_DISABLED: ")) {
                throw new AssertionError("a refusal that does not name the variable: " + refused.getMessage());
            }
        }
    }

    private static void named(String message) {
        if (message == null || message.isBlank()) {
            throw new AssertionError("a refusal that says nothing");
        }
    }
}
