package dev.sidecarwait.process;

import java.util.List;

/** The native binary's way to replace itself: the plan, carried out by {@link Libc}. Never made on the JVM. */
final class NativeReplacer implements ProcessReplacer {

    private final Inherited atStart;

    private NativeReplacer(Inherited atStart) {
        this.atStart = atStart;
    }

    static NativeReplacer startingNow() {
        return new NativeReplacer(Inherited.ofThisThread());
    }

    @Override
    public Inherited atStart() {
        return atStart;
    }

    @Override
    public void setDispositions(ExecPlan plan) {
        Libc.setDispositions(plan.ignored(), plan.defaulted());
    }

    @Override
    public int exec(ExecPlan plan) {
        return Libc.exec(plan.file(), plan.argv(), plan.blocked(), plan.close());
    }

    /** The running binary, through the link the kernel keeps to it (it may have been replaced or removed since). */
    @Override
    public List<String> self() {
        return List.of("/proc/self/exe");
    }
}
