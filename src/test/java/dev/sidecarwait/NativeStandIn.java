package dev.sidecarwait;

import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.process.ThisProcess;
import java.nio.file.Path;

/**
 * sidecar-wait on a JVM that knows its own "binary": a launcher file (STAND_IN_SELF) that runs this class, standing in
 * for the native binary where what matters is the file and who may read, copy and run it (install into a shared
 * volume, the installed copy run by another user). Everything else is the JVM build as it is: the wrapper
 * supervises, since only the native binary (or ExecWithFfm) can hand the process over.
 */
public final class NativeStandIn {

    private NativeStandIn() {
    }

    public static void main(String[] args) {
        ThisProcess self = new ThisProcess(Path.of(System.getenv("STAND_IN_SELF")), null);
        System.exit(Cli.run(new Context(System.getenv(), Clock.SYSTEM, System.out, System.err, self), args));
    }
}
