package dev.sidecarwait.mesh;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod's own view, made for one test: a new network namespace with only loopback (up), and a new PID namespace
 * whose PID 1 is a shell, as a container's entrypoint would be. In it, optionally a real redis-server and a
 * {@link PodStandIn}; then sidecar-wait, as the shell's child, with its output captured.
 */
final class PodNamespace {

    private static final String SCRIPT = """
            ip link set lo up || exit 97
            if [ -n "$POD_REDIS_PORT" ]; then
              redis-server --port "$POD_REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no >/dev/null 2>&1 &
              # ready when redis-cli's PING is answered with PONG; 10 s at most, else the pod fails saying so
              for i in $(seq 100); do [ "$(redis-cli -p "$POD_REDIS_PORT" ping 2>/dev/null)" = PONG ] && break; sleep 0.1; done
              [ "$(redis-cli -p "$POD_REDIS_PORT" ping 2>/dev/null)" = PONG ] \\
                || { echo "pod: redis-server on port $POD_REDIS_PORT did not answer PING within 10 s" >&2; exit 96; }
            fi
            if [ -n "$POD_STAND_IN" ]; then
              "$POD_JAVA" -cp "$POD_CP" dev.sidecarwait.mesh.PodStandIn "$POD_BOUND" $POD_STAND_IN &
              for i in $(seq 200); do [ -e "$POD_BOUND" ] && break; sleep 0.05; done
              [ -e "$POD_BOUND" ] || { echo "pod: the stand-in did not bind its ports within 10 s" >&2; exit 96; }
            fi
            "$@"; code=$?
            kill $(jobs -p) 2>/dev/null
            exit $code
            """;

    private PodNamespace() {
    }

    record Result(int exit, String out, String err) {
    }

    /** {@code standIn}: {@link PodStandIn}'s specs, empty for none; {@code redisPort}: 0 for no Redis. */
    static Result run(Path dir, List<String> standIn, int redisPort, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("unshare", "--net", "--pid", "--fork", "--mount-proc",
                "bash", "-c", SCRIPT, "pod"));
        command.addAll(SidecarWaitProcess.builder(args).command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        builder.environment().putAll(env);
        builder.environment().put("POD_STAND_IN", String.join(" ", standIn));
        builder.environment().put("POD_REDIS_PORT", redisPort == 0 ? "" : Integer.toString(redisPort));
        builder.environment().put("POD_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        builder.environment().put("POD_CP", System.getProperty("java.class.path"));
        builder.environment().put("POD_BOUND", Files.createTempFile(dir, "bound", "").toString());
        Files.delete(Path.of(builder.environment().get("POD_BOUND")));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!SidecarWaitProcess.exited(process, 90)) {
            throw new AssertionError("did not finish: " + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
