package dev.sidecarwait.mesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * wait, check and the wrapper in pods of each kind, each in network and PID namespaces of its own (see
 * {@link PodNamespace}), with stand-ins whose ports and answers are copied from Istio's, ztunnel's and
 * Linkerd's sources (see {@link PodStandIn}) and, behind ztunnel's stand-in, a real redis-server.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class DataPlaneModesTest {

    private static final List<String> ZTUNNEL = List.of("hold:15001", "hold:15006", "hold:15008");
    private static final List<String> ISTIO_SIDECAR = List.of("ready:15020:/healthz/ready", "hold:15000",
            "ready:15021:/healthz/ready", "hold:15090", "hold:15001", "hold:15006");
    private static final List<String> LINKERD = List.of("ready:4191:/ready", "hold:4140", "hold:4143");

    @TempDir
    Path dir;

    private PodNamespace.Result pod(List<String> standIn, String... args) throws Exception {
        return PodNamespace.run(dir, standIn, 0, Map.of(), args);
    }

    private static String firstLine(PodNamespace.Result run) {
        return run.err().lines().findFirst().orElse("");
    }

    @Test
    void ambientIsReadyWithZtunnelsThreeListenersAndSaysWhatThatProves() throws Exception {
        PodNamespace.Result run = pod(ZTUNNEL, "wait", "--mesh", "ambient", "--timeout", "30s");
        assertEquals(0, run.exit(), run.err());
        assertTrue(firstLine(run).contains("Waiting for ztunnel's listeners (15001, 15006, 15008) to be ready"), run.err());
        assertTrue(firstLine(run).contains("prove that this pod's traffic is redirected to ztunnel, not that ztunnel has "
                + "this workload's certificate: to prove the path, add a dependency (--url "), run.err());
    }

    @Test
    void ambientNamesTheListenerThatIsMissing() throws Exception {
        PodNamespace.Result run = pod(List.of("hold:15001", "hold:15006"), "wait", "--mesh", "ambient", "--timeout", "2s");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("ztunnel's listeners (15001, 15006, 15008): nothing listens on port 15008 (the others "
                + "are listening)"), run.err());
    }

    @Test
    void ambientWaitsForListenersThatAppearLate() throws Exception {
        List<String> late = List.of("after:2000", "hold:15001", "hold:15006", "hold:15008");
        PodNamespace.Result run = pod(late, "wait", "--mesh", "ambient", "--timeout", "30s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("Not ready yet: ztunnel's listeners (15001, 15006, 15008): nothing listens on port "
                + "15001, 15006, 15008\n"), run.err());
    }

    /** ztunnel accepts at once and carries nothing until istiod has sent it the workload: only Redis's PONG proves the path. */
    @Test
    void ambientWithADependencyWaitsUntilTheRealServerAnswersThroughZtunnel() throws Exception {
        List<String> standIn = List.of("hold:15001", "hold:15006", "hold:15008", "forward:16379:6390:3000");
        PodNamespace.Result run = PodNamespace.run(dir, standIn, 6390, Map.of(), "wait", "--mesh", "ambient",
                "--url", "redis://127.0.0.1:16379", "--timeout", "40s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("Not ready yet: redis://127.0.0.1:16379: "), run.err());
        assertFalse(run.err().contains("Its sockets prove"), "with a dependency, the path itself is proven: " + run.err());

        PodNamespace.Result never = PodNamespace.run(dir, List.of("hold:15001", "hold:15006", "hold:15008",
                "forward:16379:6390:600000"), 6390, Map.of(), "wait", "--mesh", "ambient", "--url", "redis://127.0.0.1:16379",
                "--timeout", "3s");
        assertEquals(1, never.exit(), never.err());
        assertTrue(never.err().contains("redis://127.0.0.1:16379"), never.err());
        assertFalse(never.err().contains("ztunnel's listeners (15001, 15006, 15008): nothing"), never.err());
    }

    @Test
    void autoFindsAnIstioSidecarAndWaitsForItsReadiness() throws Exception {
        PodNamespace.Result run = pod(ISTIO_SIDECAR, "wait", "--mesh", "auto");
        assertEquals(0, run.exit(), run.err());
        assertTrue(firstLine(run).endsWith("Data plane (--mesh auto): Istio sidecar (listening: 15000, 15020, 15021, 15090)"),
                run.err());
        assertTrue(run.err().contains("Envoy is ready!"), run.err());
    }

    @Test
    void autoFindsAmbientAndLinkerd() throws Exception {
        PodNamespace.Result ambient = pod(ZTUNNEL, "wait", "--mesh", "auto");
        assertEquals(0, ambient.exit(), ambient.err());
        assertTrue(firstLine(ambient).endsWith("Data plane (--mesh auto): ztunnel (Istio ambient) (listening: 15001, 15006, "
                + "15008)"), ambient.err());

        PodNamespace.Result linkerd = pod(LINKERD, "wait", "--mesh", "auto");
        assertEquals(0, linkerd.exit(), linkerd.err());
        assertTrue(firstLine(linkerd).endsWith("Data plane (--mesh auto): Linkerd proxy (listening: 4140, 4143, 4191)"),
                linkerd.err());
        assertTrue(linkerd.err().contains("Linkerd proxy is ready!"), linkerd.err());
    }

    @Test
    void autoConcludesNoMeshOnlyAfterTheGraceAndThenSkipsTheWait() throws Exception {
        PodNamespace.Result run = pod(List.of(), "wait", "--mesh", "auto", "--detect-grace", "1500ms");
        assertEquals(0, run.exit(), run.err());
        assertEquals(2, run.err().lines().count(), run.err());
        assertTrue(firstLine(run).endsWith("Data plane (--mesh auto): no mesh (nothing listens on 4140, 4143, 4191, 15000, "
                + "15001, 15006, 15008, 15020, 15021, 15090), after looking for 1.5 seconds: not waiting for a proxy"), run.err());
        assertTrue(run.err().contains("skipped: no mesh in this pod"), run.err());
    }

    @Test
    void autoFindsASidecarThatBindsItsPortsAfterTheAppStarts() throws Exception {
        List<String> late = List.of("after:1500", "ready:15020:/healthz/ready");
        PodNamespace.Result run = pod(late, "wait", "--mesh", "auto", "--detect-grace", "20s");
        assertEquals(0, run.exit(), run.err());
        assertTrue(firstLine(run).endsWith("Data plane (--mesh auto): Istio sidecar (listening: 15020)"), run.err());
    }

    @Test
    void theWrapperRunsTheCommandInAPodWithoutAMeshAndKeepsItsExitCode() throws Exception {
        PodNamespace.Result run = pod(List.of(), "wait", "--mesh", "auto", "--detect-grace", "500ms", "--",
                "sh", "-c", "echo the app ran; exit 7");
        assertEquals(7, run.exit(), run.err());
        assertEquals("the app ran\n", run.out());
    }

    @Test
    void aPortThatListensButDoesNotAnswerIsSaidSo() throws Exception {
        PodNamespace.Result run = pod(List.of("hold:15020"), "wait", "--mesh", "auto", "--timeout", "2s",
                "--request-timeout", "300ms");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("(port 15020 is listening in this pod but did not answer: the mesh may keep app "
                + "containers from its ports, istio/istio#61864)"), run.err());
    }

    @Test
    void checkShowsWhatAutoFoundAndAmbientsMissingListeners() throws Exception {
        PodNamespace.Result linkerd = pod(LINKERD, "check", "--mesh", "auto");
        assertEquals(0, linkerd.exit(), linkerd.out() + linkerd.err());
        assertTrue(linkerd.out().contains("\n  mesh Linkerd proxy (listening: 4140, 4143, 4191)\n"), linkerd.out());
        assertTrue(linkerd.out().contains("ready      http://localhost:4191/ready  HTTP 200"), linkerd.out());

        PodNamespace.Result ambient = pod(List.of("hold:15006"), "check", "--mesh", "ambient");
        assertEquals(1, ambient.exit(), ambient.out() + ambient.err());
        assertTrue(ambient.out().contains("NOT READY  ztunnel's listeners (15001, 15006, 15008)  nothing listens on port "
                + "15001, 15008 (the others are listening)"), ambient.out());
    }

    @Test
    void drainAndQuitTakeAutoToo() throws Exception {
        PodNamespace.Result quit = pod(ZTUNNEL, "quit", "--mesh", "auto");
        assertEquals(0, quit.exit(), quit.err());
        assertTrue(quit.err().contains("Nothing to quit: ztunnel (Istio ambient) has no proxy in the pod"), quit.err());

        // The stand-in is a java process, not envoy or pilot-agent: its sockets are told apart by that name here.
        PodNamespace.Result drain = pod(ISTIO_SIDECAR, "drain", "--mesh", "auto", "--exclude-process", "java", "--min", "0s",
                "--timeout", "5s");
        assertEquals(0, drain.exit(), drain.err());
        assertTrue(drain.err().contains("Data plane (--mesh auto): Istio sidecar (listening: 15000, 15020, 15021, 15090)"),
                drain.err());
    }
}
