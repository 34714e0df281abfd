package dev.sidecarwait.output;

import dev.sidecarwait.UtcTime;
import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.PeerText;
import java.io.PrintStream;

/**
 * One line per event on stderr. The text form copies pilot-agent's (time, tab, level, tab, message) so that
 * log searches written for Istio keep matching; the JSON form is one object a line. A message is one line whatever it
 * holds: its control characters (a peer's newline, tab or escape sequence) are written as escapes, so nothing a server
 * sends can forge a line, a field or a colour (JSON escapes them by its own rules).
 */
public final class Log {

    public enum Level { ERROR, WARN, INFO, DEBUG }

    public enum Format { TEXT, JSON }

    private final PrintStream err;
    private final Clock clock;
    private final Level threshold;
    private final Format format;
    private final PrintStream mirror;

    public Log(PrintStream err, Clock clock, Level threshold, Format format) {
        this(err, clock, threshold, format, null);
    }

    /** {@code mirror}: where every line is written as well (the container's main process's stderr), or null. */
    public Log(PrintStream err, Clock clock, Level threshold, Format format, PrintStream mirror) {
        this.err = err;
        this.clock = clock;
        this.threshold = threshold;
        this.format = format;
        this.mirror = mirror;
    }

    public void error(String message) {
        write(Level.ERROR, message);
    }

    public void warn(String message) {
        write(Level.WARN, message);
    }

    public void info(String message) {
        write(Level.INFO, message);
    }

    public void debug(String message) {
        write(Level.DEBUG, message);
    }

    public boolean isDebug() {
        return threshold == Level.DEBUG;
    }

    private void write(Level level, String message) {
        if (level.compareTo(threshold) > 0) {
            return;
        }
        String time = UtcTime.micros(clock.now());
        String name = level.name().toLowerCase(java.util.Locale.ROOT);
        String line = format == Format.JSON
                ? "{\"time\":" + Json.quote(time) + ",\"level\":" + Json.quote(name) + ",\"msg\":" + Json.quote(message) + "}"
                : time + "\t" + name + "\t" + PeerText.printable(message);
        err.println(line);
        err.flush();
        if (mirror != null) {
            mirror.println(line);
            mirror.flush();
        }
    }
}
