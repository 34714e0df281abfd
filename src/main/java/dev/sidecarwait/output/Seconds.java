package dev.sidecarwait.output;

import java.math.BigDecimal;
import java.time.Duration;

/** A setting counted in seconds: "60 seconds", "2.5 seconds", "1 second". */
public final class Seconds {

    private Seconds() {
    }

    public static String of(Duration duration) {
        return duration.toMillis() == 1000 ? "1 second" : plural(duration);
    }

    /** Always "seconds", as pilot-agent's first line has it ("%d seconds"): "(timeout: 1 seconds)", so searches match. */
    public static String plural(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " seconds";
    }
}
