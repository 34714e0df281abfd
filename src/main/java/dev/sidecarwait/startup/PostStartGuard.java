package dev.sidecarwait.startup;

import dev.sidecarwait.process.ParentChain;
import java.io.IOException;

/**
 * An ambient wait in a postStart hook cannot succeed: the hook holds back the pod's IP, so istiod never sends
 * ztunnel this workload, and the pod is stuck until the hook times out (istio/istio#60969). A hook is an exec
 * into the container, so its process does not descend from the container's PID 1 (see {@link ParentChain}).
 */
public final class PostStartGuard {

    /** The refusal: a usage error, said by the command line as one (exit 2). */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    public static final String FLAG = "--allow-post-start";
    public static final String VARIABLE = "SIDECAR_WAIT_ALLOW_POST_START";

    private PostStartGuard() {
    }

    /** Refuses at once when this process does not descend from PID 1; a chain that cannot be read is let be. */
    static void check(ParentChain chain) {
        long top;
        try {
            top = chain.top();
        } catch (IOException | RuntimeException unreadable) {
            return;
        }
        if (top != 1) {
            throw new Refused("refusing to wait for ztunnel outside the container's entrypoint (this process "
                    + "descends from PID " + top + ", not PID 1: a postStart hook or an exec): a hook holds back the "
                    + "pod's IP, so istiod never sends ztunnel this workload and the pod deadlocks (istio/istio#60969); "
                    + "wrap the entrypoint (sidecar-wait wait --mesh ambient -- app args) or wait in an init container, "
                    + "or give " + FLAG + " (" + VARIABLE + "=true) if this is no hook");
        }
    }
}
