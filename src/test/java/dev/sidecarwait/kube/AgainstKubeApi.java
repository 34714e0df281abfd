package dev.sidecarwait.kube;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.KubeApi;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** What the k8s:// process tests share: one API server (servers/KubeApi) for the class, reset after each test. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgainstKubeApi {

    Path dir;
    KubeApi api;

    @BeforeAll
    void apiServer(@TempDir Path classDir) throws Exception {
        dir = classDir; // removed after the class, whatever its outcome
        api = KubeApi.start(dir);
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    @AfterEach
    void reset() throws Exception {
        api.reset();
    }

    /** Created, or replaced where it exists, in namespace shop. */
    void put(String json) {
        api.client.resource(json).inNamespace("shop").createOr(existing -> existing.update());
    }

    /** A wait started with the pod's environment, its stderr in {@code err}; the caller waits for it. */
    Process started(Path err, String... args) throws Exception {
        ProcessBuilder builder = SidecarWaitProcess.builder(args);
        builder.environment().putAll(api.podEnv());
        return builder.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
