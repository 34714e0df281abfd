package dev.sidecarwait.process;

import java.util.List;

/**
 * Replaces this process with a command (execv(3)), carrying out an {@link ExecPlan}. Only the native binary
 * has one ({@link NativeReplacer}); a JVM cannot replace itself.
 */
public interface ProcessReplacer {

    /** What the process inherited when it started: the command gets the same. */
    Inherited atStart();

    /** The plan's signal dispositions: from here on a signal acts on this process as it would on the command. */
    void setDispositions(ExecPlan plan);

    /** The plan's mask and descriptors, then execv. Returns only if the exec failed: its errno. */
    int exec(ExecPlan plan);

    /** The command that starts this program again, to which an {@link ExecStage}'s arguments are appended. */
    List<String> self();
}
