package dev.sidecarwait.output;

import java.math.BigDecimal;
import java.time.Duration;

/** A setting in pilot-agent's words, counted in seconds: "60 seconds", "2.5 seconds", "1 second". */
public final class Seconds {

    private Seconds() {
    }

    public static String of(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 == 0) {
            return (millis / 1000) + (millis == 1000 ? " second" : " seconds");
        }
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " seconds";
    }
}
