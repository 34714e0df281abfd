package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Why a command could not be started, decided the way execvp(3) finds it, not from the runtime's error text
 * (the JDK and a native image word it differently): a name with a slash is a path; any other name is looked
 * for in each PATH entry. Not found is the shell's 127; found but a directory or not executable is 126.
 */
public final class CommandLookup {

    /** What the lookup found: the shell's exit code and the reason, for one log line. */
    public record Failure(int exitCode, String reason) {
    }

    private CommandLookup() {
    }

    /**
     * Why starting {@code program} failed. The exception's text only goes into the message (for "cannot
     * execute"); the exit code never depends on it.
     */
    public static Failure whyNotStarted(String program, String path, IOException startFailure) {
        Failure failure = lookUp(program, path);
        return failure.reason().startsWith("cannot execute")
                ? new Failure(failure.exitCode(), failure.reason() + ": " + startFailure.getMessage()) : failure;
    }

    static Failure lookUp(String program, String path) {
        if (program.isEmpty()) {
            return new Failure(127, "command not found");
        }
        if (program.contains("/")) {
            return judge(Path.of(program), "no such file");
        }
        Path nonExecutable = null;
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(":", -1)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return new Failure(126, "cannot execute (found as " + candidate + ")");
            }
            if (nonExecutable == null && Files.exists(candidate) && !Files.isDirectory(candidate)) {
                nonExecutable = candidate;
            }
        }
        return nonExecutable != null ? judge(nonExecutable, "command not found") : new Failure(127, "command not found");
    }

    private static Failure judge(Path file, String missing) {
        if (!Files.exists(file)) {
            return new Failure(127, missing);
        }
        if (Files.isDirectory(file)) {
            return new Failure(126, "is a directory");
        }
        if (!Files.isExecutable(file)) {
            return new Failure(126, "permission denied (not an executable file)");
        }
        return new Failure(126, "cannot execute");
    }
}
