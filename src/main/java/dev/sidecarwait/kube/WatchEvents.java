package dev.sidecarwait.kube;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.io.ByteArrayOutputStream;

/**
 * A watch's stream, one event (a line of JSON) at a time, read as far as each attempt's time allows: a partial event
 * waits for the next attempt. An event longer than {@code maxEvent} bytes ends the watch.
 */
final class WatchEvents {

    private final Wire wire;
    private final ChunkedBody frames;
    private final int maxEvent;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean ended;

    WatchEvents(Wire wire, ChunkedBody frames, int maxEvent) {
        this.wire = wire;
        this.frames = frames;
        this.maxEvent = maxEvent;
    }

    /** The next event's bytes, or null when none came whole before {@code deadline} or the watch has {@link #ended}. */
    byte[] next(long deadline) throws ProbeFailure {
        while (!ended && wire.arrives(deadline)) {
            int b = wire.read();
            if (b < 0 && line.size() > 0) {
                throw new ProbeFailure("cut mid-event (resumed from the last version seen)");
            }
            if (b < 0 || frames.done()) {
                ended = true;
                return null;
            }
            if (!frames.data(b)) {
                ended = frames.done();
                continue;
            }
            if (b == '\n') {
                byte[] event = line.toByteArray();
                line.reset();
                if (event.length > 0) {
                    return event;
                }
            } else if (line.size() >= maxEvent) {
                throw new ProbeFailure("a watch event from the API server larger than " + maxEvent / 1024 + " KiB");
            } else {
                line.write(b);
            }
        }
        return null;
    }

    /** The server ended the watch (its timeout, a restart): resumed from the last version seen. */
    boolean ended() {
        return ended;
    }
}
