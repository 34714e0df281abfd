package dev.sidecarwait.mesh;

import dev.sidecarwait.Clock;
import dev.sidecarwait.sockets.ProcNetTcp;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** Looks at this pod's socket table for a data plane: once, or again every period until one shows or a grace passes. */
public final class Detector {

    private final Clock clock;
    private final ProcNetTcp sockets;

    public Detector(Clock clock, Path proc) {
        this.clock = clock;
        this.sockets = new ProcNetTcp(proc);
    }

    public Detection now() throws IOException {
        return Detection.of(sockets.read());
    }

    /**
     * The first data plane that shows within {@code grace}; "none" only once the grace has passed, because a
     * legacy sidecar may not have bound its ports when the app's entrypoint starts.
     */
    public Detection within(Duration grace, Duration period) throws IOException, InterruptedException {
        long deadline = clock.nanoTime() + grace.toNanos();
        while (true) {
            Detection found = now();
            long left = deadline - clock.nanoTime();
            if (!found.none() || left <= 0) {
                return found;
            }
            clock.sleep(Duration.ofNanos(Math.min(left, period.toNanos())));
        }
    }
}
