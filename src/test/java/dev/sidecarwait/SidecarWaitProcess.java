package dev.sidecarwait;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts the tool as a real process (a JVM running Main from the test class path), for exit codes and streams, with
 * every signal at its default disposition, as a container runtime starts an entrypoint (runc resets them): whatever
 * this test run inherited (a shell's background job has SIGINT and SIGQUIT ignored, and HotSpot then leaves an ignored
 * SIGINT or SIGTERM ignored) must not decide what a test sees.
 */
public final class SidecarWaitProcess {

    /** coreutils' env with every signal back to its default, then the command: how each test starts an entrypoint. */
    public static final List<String> ENTRYPOINT = List.of("env", "--default-signal");

    private SidecarWaitProcess() {
    }

    public static ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>(ENTRYPOINT);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        return builder;
    }

    /** Waits (30 s at most) until the file a process writes its output to holds {@code text}. */
    public static void awaitText(Path file, String text) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("'" + text + "' never appeared in " + file + ": "
                + (Files.exists(file) ? Files.readString(file) : "(no file)"));
    }

    /** What a finished run left behind. */
    public record Result(int exit, String out, String err) {
    }

    public static Result run(Map<String, String> env, File stdin, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(args);
        builder.environment().putAll(env);
        Path out = Files.createTempFile("sidecar-wait-out", ".txt");
        Path err = Files.createTempFile("sidecar-wait-err", ".txt");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin);
        }
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("sidecar-wait did not finish within 60 s");
        }
        try {
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
