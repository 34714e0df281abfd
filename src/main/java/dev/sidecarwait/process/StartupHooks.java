package dev.sidecarwait.process;

import org.graalvm.nativeimage.VMRuntime;

/**
 * Native image only: runs the image runtime's start-up hooks (the no-op SIGPIPE and SIGXFSZ handlers, the exit
 * handlers for SIGTERM and SIGINT, the segfault handler). GraalVM runs them before main only when it parses
 * runtime options (JavaMainWrapper.runCore0: "The user is expected to manually run the startup hooks after setting
 * all option values"), and native/native-image.properties turns that parsing off (-H:-ParseRuntimeOptions) so that
 * -D, -X and -XX arguments reach the wrapped command. Without them a write to a peer that has closed kills the
 * process with SIGPIPE (exit 141; the JVM ignores SIGPIPE). Called by {@link ThisProcess#detect} only.
 */
final class StartupHooks {

    private StartupHooks() {
    }

    static void run() {
        VMRuntime.initialize();
    }
}
