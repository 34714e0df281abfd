package dev.sidecarwait.cli;

import dev.sidecarwait.Clock;
import java.io.PrintStream;
import java.util.Map;

/** What a command needs from the outside world, passed in so tests can supply their own. */
public record Context(Map<String, String> env, Clock clock, PrintStream out, PrintStream err) {
}
