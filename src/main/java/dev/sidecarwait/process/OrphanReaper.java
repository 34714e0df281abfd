package dev.sidecarwait.process;

import dev.sidecarwait.output.Log;
import java.nio.file.Path;

/**
 * As PID 1 in a container, every orphaned process in it becomes our child, and unreaped it stays a zombie.
 * The reaper waits for those orphans one pid at a time (never waitpid(-1), which would steal the command's
 * exit status from the JDK). Only possible in the native image; on the JVM it says so once.
 */
public final class OrphanReaper {

    private final Log log;
    private final Zombies zombies = new Zombies(Path.of("/proc"));

    public OrphanReaper(Log log) {
        this.log = log;
    }

    /** Starts reaping (a daemon thread, once a second) when this process is PID 1. */
    public void startIfPidOne(Process command) {
        if (ProcessHandle.current().pid() != 1) {
            return;
        }
        if (!NativeImage.RUNTIME) {
            log.debug("Running as PID 1 on the JVM: orphaned processes are not reaped (the native build does)");
            return;
        }
        Thread reaper = new Thread(() -> {
            while (true) {
                for (long pid : zombies.childrenOf(1)) {
                    if (pid != command.pid() && Libc.reap((int) pid)) {
                        log.debug("Reaped orphaned process " + pid);
                    }
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "orphan-reaper");
        reaper.setDaemon(true);
        reaper.start();
    }
}
