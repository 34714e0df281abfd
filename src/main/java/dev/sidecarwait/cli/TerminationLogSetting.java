package dev.sidecarwait.cli;

import dev.sidecarwait.output.TerminationLog;
import java.nio.file.Path;

/** --termination-log and SIDECAR_WAIT_TERMINATION_LOG: where a failed wait's last line goes as well. */
final class TerminationLogSetting {

    static final String FLAG = "--termination-log";
    static final String VARIABLE = "SIDECAR_WAIT_TERMINATION_LOG";

    private TerminationLogSetting() {
    }

    /**
     * The flag's value ({@code flag}, null when not given), else the variable, else Kubernetes' default path when that
     * file is there to write; "none" turns it off.
     */
    static TerminationLog resolve(String flag, Env env) {
        String value = flag != null ? flag.trim() : env.get(VARIABLE);
        if (value == null) {
            return new TerminationLog(TerminationLog.KUBERNETES_DEFAULT, true);
        }
        if (value.equalsIgnoreCase("none")) {
            return TerminationLog.off();
        }
        if (value.isEmpty()) {
            throw UsageError.invalid(flag != null ? FLAG : VARIABLE, "'' is not a path (give a path, or none)");
        }
        return new TerminationLog(Path.of(value), false);
    }
}
