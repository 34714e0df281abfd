package dev.sidecarwait.startup;

import dev.sidecarwait.Clock;
import dev.sidecarwait.mesh.Mesh;
import dev.sidecarwait.mesh.SidecarQuit;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.Target;
import java.util.List;

/** Once the command has exited: the quit URLs given, and with --quit-sidecar the mesh's, POSTed (or why there is none). */
final class QuitAfterCommand {

    private QuitAfterCommand() {
    }

    /** {@code mesh}: the mesh named or found (null: none). */
    static void post(WaitPlan plan, Mesh mesh, Clock clock, Log log) {
        List<Target.Http> urls = plan.quitUrls(mesh);
        if (plan.quitSidecar() && (mesh == null || mesh.quitUrl() == null)) {
            log.info("--quit-sidecar: nothing to quit, " + (mesh == null ? "this pod has no mesh" : mesh.title()
                    + " has no proxy in the pod"));
        }
        if (!urls.isEmpty()) {
            new SidecarQuit(clock, log::info, log::warn, plan.tls()).post(urls, plan.quitEach());
        }
    }
}
