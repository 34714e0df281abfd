package dev.sidecarwait.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.KubeApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * k8s:// targets through the tool as a process (the jar, each native binary), against fabric8's Kubernetes mock
 * server behind a TLS front (servers/KubeApi), with objects shaped as a 1.33 API server returns them.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class KubeTargetsProcessTest extends AgainstKubeApi {

    static String job(String name, String conditions, String counts) {
        return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\"},"
                + "\"spec\":{\"backoffLimit\":2,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":"
                + "\"migrate\",\"image\":\"migrate:1\"}]}}},\"status\":{" + counts + (conditions.isEmpty() ? "" : ",\"conditions\":["
                + conditions + "]") + "}}";
    }

    static String condition(String type, String reason, String message) {
        return "{\"type\":\"" + type + "\",\"status\":\"True\",\"reason\":\"" + reason + "\",\"message\":\"" + message
                + "\",\"lastTransitionTime\":\"2026-11-28T04:00:00Z\",\"lastProbeTime\":\"2026-11-28T04:00:00Z\"}";
    }

    SidecarWaitProcess.Result run(String... args) throws Exception {
        return SidecarWaitProcess.run(api.podEnv(), null, args);
    }

    @Test
    void aJobThatCompletesDuringTheWaitEndsItWithOneListAndOneWatch() throws Exception {
        put(job("migrate", "", "\"active\":1"));
        Path err = dir.resolve("complete.err");
        Process wait = started(err, "wait", "--url", "k8s://job/migrate", "--timeout", "40s", "--request-timeout", "2s", "--verbose");
        SidecarWaitProcess.awaitText(err, "active 1, succeeded 0, failed 0");
        put(job("migrate", condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods")
                + "," + condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods"),
                "\"succeeded\":1"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        String log = Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, wait.exitValue(), log);
        assertEquals(1, api.count("/apis/batch/v1/namespaces/shop/jobs?fieldSelector"), api.requests.toString());
        assertEquals(1, api.count("watch=1"), api.requests.toString());
    }

    @Test
    void aJobThatFailedForGoodEndsTheWaitAtOnceWithItsReason() throws Exception {
        put(job("migrate", condition("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
                + "," + condition("Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit"), "\"failed\":3"));
        Path termination = dir.resolve("failed.termination");
        long start = System.nanoTime();
        SidecarWaitProcess.Result wait = run("wait", "--url", "k8s://job/migrate", "--timeout", "40s",
                "--termination-log", termination.toString());
        assertEquals(1, wait.exit(), wait.err());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "waited on a failed Job");
        assertTrue(wait.err().contains("BackoffLimitExceeded: Job has reached the specified backoff limit"), wait.err());
        assertTrue(Files.readString(termination).contains("failed for good"), Files.readString(termination));

        // caught at FailureTarget, before the controller has counted the failed pod: worded from the condition
        put(job("migrate", condition("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit"),
                "\"active\":1"));
        SidecarWaitProcess.Result failing = run("check", "--request-timeout", "5s", "--url", "k8s://job/migrate");
        assertEquals(1, failing.exit(), failing.out());
        assertTrue(failing.out().contains("the Job failed (BackoffLimitExceeded: Job has reached the specified backoff limit); "
                + "its pods are being ended (FailureTarget)"), failing.out());
        assertFalse(failing.out().contains("failed 0"), failing.out());
    }

    @Test
    void aJobThatDoesNotExistIsWaitedForUnlessAbsentCountsAsDone() throws Exception {
        Path termination = dir.resolve("absent.termination");
        SidecarWaitProcess.Result waited = run("wait", "--url", "k8s://job/migrate", "--timeout", "2s",
                "--termination-log", termination.toString());
        assertEquals(1, waited.exit(), waited.err());
        assertTrue(Files.readString(termination).contains("not found"), Files.readString(termination));
        SidecarWaitProcess.Result absent = run("wait", "--url", "k8s://job/migrate?absent=ready", "--timeout", "20s");
        assertEquals(0, absent.exit(), absent.err());
        assertTrue(absent.err().contains("\tinfo\tk8s://job/migrate?absent=ready is ready! (not found: absent counts as done "
                + "(?absent=ready))\n"), absent.err());
    }

    static String slice(String service, boolean... ready) {
        List<String> endpoints = new ArrayList<>();
        for (int i = 0; i < ready.length; i++) {
            endpoints.add("{\"addresses\":[\"10.0.0." + (i + 1) + "\"],\"conditions\":{\"ready\":" + ready[i] + "}}");
        }
        return "{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\",\"metadata\":{\"name\":\"" + service
                + "-x7k2p\",\"namespace\":\"shop\",\"labels\":{\"kubernetes.io/service-name\":\"" + service + "\"}},"
                + "\"addressType\":\"IPv4\",\"endpoints\":[" + String.join(",", endpoints) + "],\"ports\":[{\"name\":\"pg\","
                + "\"port\":5432,\"protocol\":\"TCP\"}]}";
    }

    /** One pod in an IPv4 and an IPv6 slice is one endpoint. */
    @Test
    void aDualStackServicesPodCountsOnce() throws Exception {
        for (String family : new String[] {"IPv4", "IPv6"}) {
            put("{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\",\"metadata\":{\"name\":\"orders-db-"
                    + family.toLowerCase(java.util.Locale.ROOT) + "\",\"namespace\":\"shop\",\"labels\":{\"kubernetes.io/"
                    + "service-name\":\"orders-db\"}},\"addressType\":\"" + family + "\",\"endpoints\":[{\"addresses\":[\""
                    + (family.equals("IPv4") ? "10.0.0.7" : "fd00::7") + "\"],\"conditions\":{\"ready\":true},\"targetRef\":"
                    + "{\"kind\":\"Pod\",\"namespace\":\"shop\",\"name\":\"orders-db-0\"}}],\"ports\":[{\"port\":5432}]}");
        }
        SidecarWaitProcess.Result check = run("check", "--request-timeout", "5s", "--url", "k8s://svc/orders-db?endpoints=2");
        assertEquals(1, check.exit(), check.out());
        assertTrue(check.out().contains("1 ready endpoint of 1 (2 wanted)"), check.out());
    }

    @Test
    void aServiceIsReadyOnceItsEndpointSlicesHoldTheEndpointsAskedFor() throws Exception {
        put(slice("orders-db", true, false));
        Path err = dir.resolve("service.err");
        Process wait = started(err, "wait", "--url", "k8s://svc/orders-db?endpoints=2", "--timeout", "40s", "--request-timeout", "2s", "--verbose");
        SidecarWaitProcess.awaitText(err, "1 ready endpoint of 2 (2 wanted)");
        put(slice("orders-db", true, true));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
        assertEquals(1, api.count("endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dorders-db HTTP"), api.requests.toString());
    }

    static String deployment(long generation, String status) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"shop\","
                + "\"generation\":" + generation + "},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"web\","
                + "\"image\":\"web:2\"}]}}},\"status\":{" + status + "}}";
    }

    @Test
    void aDeploymentIsReadyOnceRolledOutAsKubectlRolloutStatusJudgesIt() throws Exception {
        put(deployment(2, "\"observedGeneration\":2,\"replicas\":3,\"updatedReplicas\":3,\"readyReplicas\":2,"
                + "\"availableReplicas\":2"));
        Path err = dir.resolve("rollout.err");
        Process wait = started(err, "wait", "--url", "k8s://deploy/web", "--timeout", "40s", "--request-timeout", "2s", "--verbose");
        SidecarWaitProcess.awaitText(err, "2 of 3 updated replicas are available");
        put(deployment(2, "\"observedGeneration\":2,\"replicas\":3,\"updatedReplicas\":3,\"readyReplicas\":3,"
                + "\"availableReplicas\":3"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
    }

    static String pod(String name, boolean ready) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"shop\","
                + "\"labels\":{\"app\":\"db\"}},\"spec\":{\"containers\":[{\"name\":\"db\",\"image\":\"postgres:17\"}]},"
                + "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False")
                + "\"" + (ready ? "" : ",\"reason\":\"ContainersNotReady\",\"message\":\"containers with unready status: [db]\"")
                + "}]}}";
    }

    @Test
    void podsPickedByALabelSelectorAreReadyWhenAllOfThemAre() throws Exception {
        put(pod("db-0", true));
        put(pod("db-1", false));
        Path err = dir.resolve("pods.err");
        Process wait = started(err, "wait", "--url", "k8s://pods?selector=app%3Ddb", "--timeout", "40s", "--request-timeout", "2s", "--verbose");
        SidecarWaitProcess.awaitText(err, "1 of 2 pods Ready (db-1 is Running: ContainersNotReady: containers with unready status: [db])");
        put(pod("db-1", true));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
    }

    @Test
    void checkShowsWhereAJobIsAndExitsAtOnce() throws Exception {
        put(job("migrate", condition("Suspended", "JobSuspended", "Job suspended"), "\"active\":0"));
        SidecarWaitProcess.Result check = run("check", "--request-timeout", "5s", "--url", "k8s://job/migrate");
        assertEquals(1, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("not complete yet: active 0, succeeded 0, failed 0; last condition Suspended "
                + "(JobSuspended: Job suspended)"), check.out());
        assertEquals(0, api.count("watch=1"), api.requests.toString());
    }

    static String certificate(String ready, String reason, String message) {
        return "{\"apiVersion\":\"cert-manager.io/v1\",\"kind\":\"Certificate\",\"metadata\":{\"name\":\"web-tls\","
                + "\"namespace\":\"shop\"},\"spec\":{\"secretName\":\"web-tls\",\"dnsNames\":[\"web.shop.svc\"],\"issuerRef\":"
                + "{\"name\":\"ca\",\"kind\":\"ClusterIssuer\"}},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\""
                + ready + "\",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}]}}";
    }

    /** cert-manager's own discovery documents, as its CRDs make the API server serve them. */
    void serveCertManagersDiscovery() {
        api.mock.expect().get().withPath("/apis/cert-manager.io").andReturn(200, "{\"kind\":\"APIGroup\",\"apiVersion\":\"v1\","
                + "\"name\":\"cert-manager.io\",\"versions\":[{\"groupVersion\":\"cert-manager.io/v1\",\"version\":\"v1\"}],"
                + "\"preferredVersion\":{\"groupVersion\":\"cert-manager.io/v1\",\"version\":\"v1\"}}").always();
        api.mock.expect().get().withPath("/apis/cert-manager.io/v1").andReturn(200, "{\"kind\":\"APIResourceList\",\"apiVersion\":"
                + "\"v1\",\"groupVersion\":\"cert-manager.io/v1\",\"resources\":[{\"name\":\"certificates\",\"singularName\":"
                + "\"certificate\",\"namespaced\":true,\"kind\":\"Certificate\",\"verbs\":[\"delete\",\"deletecollection\",\"get\","
                + "\"list\",\"patch\",\"create\",\"update\",\"watch\"],\"shortNames\":[\"cert\",\"certs\"],\"categories\":"
                + "[\"cert-manager\"]},{\"name\":\"certificates/status\",\"singularName\":\"\",\"namespaced\":true,\"kind\":"
                + "\"Certificate\",\"verbs\":[\"get\",\"patch\",\"update\"]}]}").always();
        api.mock.expectCustomResource(new io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext.Builder()
                .withGroup("cert-manager.io").withVersion("v1").withPlural("certificates").withKind("Certificate")
                .withScope("Namespaced").build());
    }

    @Test
    void aCustomResourceIsFoundThroughDiscoveryAndJudgedByItsCondition() throws Exception {
        serveCertManagersDiscovery();
        put(certificate("False", "Issuing", "Issuing certificate as Secret does not exist"));
        Path err = dir.resolve("certificate.err");
        Process wait = started(err, "wait", "--url", "k8s://certs.cert-manager.io/web-tls?condition=Ready",
                "--timeout", "40s", "--request-timeout", "2s", "--verbose");
        SidecarWaitProcess.awaitText(err, "condition Ready is False (Issuing: Issuing certificate as Secret does not exist), "
                + "waiting for True");
        put(certificate("True", "Ready", "Certificate is up to date and has not expired"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
        assertEquals(1, api.count("GET /apis/cert-manager.io/v1/namespaces/shop/certificates?fieldSelector"), api.requests.toString());
    }

    /**
     * The API-load figure of docs/kubernetes.md: {@value #PODS} pods waiting on one Job while it runs make one list and
     * one watch each, however long it runs and whatever the period, where a poll would ask every period.
     */
    @Test
    void manyPodsWaitingOnOneJobMakeOneListAndOneWatchEach() throws Exception {
        put(job("migrate", "", "\"active\":1"));
        List<Process> waits = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int i = 0; i < PODS; i++) {
            Path err = dir.resolve("load-" + i + ".err");
            logs.add(err);
            waits.add(started(err, "wait", "--url", "k8s://job/migrate", "--timeout", "60s", "--period", "250ms",
                    "--request-timeout", "5s", "--verbose"));
        }
        for (Path err : logs) {
            SidecarWaitProcess.awaitText(err, "active 1, succeeded 0, failed 0");
        }
        long waited = System.nanoTime();
        Thread.sleep(RUNNING_MILLIS);
        put(job("migrate", condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods"),
                "\"succeeded\":1"));
        for (Process wait : waits) {
            assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "a wait did not end");
            assertEquals(0, wait.exitValue());
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - waited);
        long lists = api.count("jobs?fieldSelector");
        long watches = api.count("watch=1");
        System.out.println("API load (" + SidecarWaitProcess.PLATFORM + "): " + PODS + " pods waited " + seconds + " s on one Job: "
                + lists + " lists, " + watches + " watches, " + api.requests.size() + " requests in all");
        assertEquals(PODS, lists, api.requests.toString());
        assertEquals(PODS, watches, api.requests.toString());
    }

    private static final int PODS = 6;
    private static final long RUNNING_MILLIS = 3000;
}
