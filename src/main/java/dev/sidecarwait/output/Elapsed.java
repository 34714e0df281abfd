package dev.sidecarwait.output;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Time spent, one way everywhere a wait or a drain says how long it took: seconds to a tenth, "2.3 s". Settings keep
 * pilot-agent's words ("timeout: 60 seconds").
 */
public final class Elapsed {

    private Elapsed() {
    }

    public static String of(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis() / 100, 1).toPlainString() + " s";
    }
}
