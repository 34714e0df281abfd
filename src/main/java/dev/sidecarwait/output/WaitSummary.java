package dev.sidecarwait.output;

import dev.sidecarwait.probe.ProbeResult;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.probe.Waiter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The last line of every wait, however it ends, and the termination message when it fails: the verdict, the
 * time spent, the attempts per target, the last error of each target not ready (with Envoy's explanation when
 * its admin API answered), what became of the command, and the exit code about to be returned.
 */
public final class WaitSummary {

    private WaitSummary() {
    }

    /**
     * {@code progress} is null when no target was probed (the wait was skipped); {@code envoy} and
     * {@code command} may be null.
     */
    public static String line(String verdict, Waiter.Outcome progress, String envoy, String command, int exitCode) {
        List<String> parts = waitParts(verdict, progress, envoy);
        if (command != null) {
            parts.add(command);
        }
        parts.add("exit code " + exitCode);
        return "sidecar-wait: " + String.join("; ", parts);
    }

    /**
     * The last line before the process is handed over to {@code program}: there is no exit code of ours to give,
     * the command's own will be the process's.
     */
    public static String handedOver(String verdict, Waiter.Outcome progress, String envoy, String program, long pid) {
        List<String> parts = waitParts(verdict, progress, envoy);
        parts.add("handing over: " + program + " now runs in its place (exec, pid " + pid + "), its exit code is the process's");
        return "sidecar-wait: " + String.join("; ", parts);
    }

    private static List<String> waitParts(String verdict, Waiter.Outcome progress, String envoy) {
        List<String> parts = new ArrayList<>();
        if (progress == null) {
            parts.add(verdict);
            return parts;
        }
        parts.add(verdict + " after " + Elapsed.of(progress.elapsed()));
        List<String> attempts = new ArrayList<>();
        for (Map.Entry<Target, Integer> entry : progress.attempts().entrySet()) {
            attempts.add(entry.getKey().text() + " " + entry.getValue());
        }
        parts.add("attempts: " + String.join(", ", attempts));
        if (!progress.ready()) {
            List<String> errors = new ArrayList<>();
            for (ProbeResult result : progress.unready()) {
                errors.add(result.target().text() + ": " + result.detail());
            }
            parts.add("not ready: " + String.join(", ", errors));
            if (envoy != null) {
                parts.add(envoy);
            }
        }
        return parts;
    }
}
