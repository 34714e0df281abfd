package dev.sidecarwait.cli;

import dev.sidecarwait.Clock;
import dev.sidecarwait.process.ThisProcess;
import java.io.PrintStream;
import java.util.Map;

/** What a command needs from the outside world, passed in at run time so tests can supply their own. */
public record Context(Map<String, String> env, Clock clock, PrintStream out, PrintStream err, ThisProcess process) {

    /** A run on the JVM: no native binary to copy, no way to replace the process. */
    public Context(Map<String, String> env, Clock clock, PrintStream out, PrintStream err) {
        this(env, clock, out, err, ThisProcess.JVM);
    }
}
