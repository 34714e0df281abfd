package dev.sidecarwait.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a command is, decided the way execvp(3) and the container runtime (runc) find it, and why it could not be started, never from the
 * runtime's error text (the JDK and a native image word it differently): a name with a slash is a path; any other
 * name is looked for in each PATH entry. Not found is the shell's 127; found but a directory or not executable is
 * 126.
 */
public final class CommandLookup {

    /** What a lookup found: an executable file, or the shell's exit code and the reason, for one log line. */
    public sealed interface Lookup permits Found, Failure {
    }

    /** {@code directory}: the PATH entry it was found in, null when the name itself is a path. */
    public record Found(Path file, String directory) implements Lookup {
    }

    public record Failure(int exitCode, String reason) implements Lookup {
    }

    private static final int ENOENT = 2;
    private static final Failure NOT_A_PROGRAM = new Failure(126, "cannot execute: exec format error");

    private CommandLookup() {
    }

    /**
     * Why starting {@code program} failed. The exception's text only goes into the message (for "cannot
     * execute"); the exit code never depends on it.
     */
    public static Failure whyNotStarted(String program, String path, IOException startFailure) {
        Lookup found = find(program, path);
        return found instanceof Failure failure ? failure
                : new Failure(126, "cannot execute (found as " + ((Found) found).file() + "): " + startFailure.getMessage());
    }

    /** A failed exec in the shell's terms: ENOENT is 127 (not found), any other errno 126. */
    public static Failure afterExec(String program, int errno) {
        if (errno == ENOENT) {
            return new Failure(127, program.contains("/") ? "no such file" : "command not found");
        }
        return new Failure(126, "cannot execute: " + Errno.describe(errno));
    }

    /** The file execvp would run, or why there is none. */
    public static Lookup find(String program, String path) {
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
                return isProgram(candidate) ? new Found(candidate, dir.isEmpty() ? "." : dir) : NOT_A_PROGRAM;
            }
            if (nonExecutable == null && Files.exists(candidate) && !Files.isDirectory(candidate)) {
                nonExecutable = candidate;
            }
        }
        return nonExecutable != null ? judge(nonExecutable, "command not found") : new Failure(127, "command not found");
    }

    private static Lookup judge(Path file, String missing) {
        if (!Files.exists(file)) {
            return new Failure(127, missing);
        }
        if (Files.isDirectory(file)) {
            return new Failure(126, "is a directory");
        }
        if (!Files.isExecutable(file)) {
            return new Failure(126, "permission denied (not an executable file)");
        }
        return isProgram(file) ? new Found(file, null) : NOT_A_PROGRAM;
    }

    /**
     * Whether the kernel runs the file itself: an ELF binary or a script that starts with #!. Anything else fails with
     * ENOEXEC, as runc and a hand-over (execv) leave it; the JDK's launcher alone would hand it to /bin/sh instead. A
     * file that cannot be read (mode 111) is left for the kernel to judge.
     */
    static boolean isProgram(Path file) {
        byte[] start = new byte[4];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(start, 0, 4);
        } catch (IOException unreadable) {
            return true;
        }
        boolean script = read >= 2 && start[0] == '#' && start[1] == '!';
        boolean elf = read == 4 && start[0] == 0x7f && start[1] == 'E' && start[2] == 'L' && start[3] == 'F';
        return script || elf;
    }
}
