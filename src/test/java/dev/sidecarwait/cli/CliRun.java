package dev.sidecarwait.cli;

import dev.sidecarwait.Clock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Runs the real command line in-process with a given environment, capturing what it prints. */
record CliRun(int exit, String out, String err) {

    static CliRun run(Map<String, String> env, String... args) {
        return run(env, Clock.SYSTEM, args);
    }

    static CliRun run(Map<String, String> env, Clock clock, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run(new Context(env, clock, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), args);
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    long errLines() {
        return err.lines().count();
    }
}
