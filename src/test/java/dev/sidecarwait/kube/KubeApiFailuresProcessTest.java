package dev.sidecarwait.kube;

import static dev.sidecarwait.kube.KubeTargetsProcessTest.condition;
import static dev.sidecarwait.kube.KubeTargetsProcessTest.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.KubeApi;
import dev.sidecarwait.servers.WatchRelay;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The API server refusing, failing and turning hostile, through the tool as a process (jar, binaries): each refusal
 * says what to do; a watch cut, expired (410) or throttled (429) is resumed as client-go resumes it; a token rotated
 * during the wait is read again; what a hostile server sends ends the wait by its deadline.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class KubeApiFailuresProcessTest extends AgainstKubeApi {

    private static final String DONE = condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods");
    private SidecarWaitProcess.Result run(Map<String, String> env, String... args) throws Exception {
        return SidecarWaitProcess.run(env, null, args);
    }

    /** A wait whose requests have time for a JVM's first TLS handshakes on a loaded machine. */
    private SidecarWaitProcess.Result waitFor(String url, String timeout) throws Exception {
        return run(api.podEnv(), "wait", "--url", url, "--timeout", timeout, "--request-timeout", "2s", "--verbose");
    }

    @Test
    void forbiddenNamesTheServiceAccountAndTheRoleThatGrantsIt() throws Exception {
        api.answer((line, out) -> {
            KubeApi.respond(out, 403, "", KubeApi.status(403, "Forbidden", "jobs.batch is forbidden: User "
                    + "\\\"system:serviceaccount:shop:migrator\\\" cannot list resource \\\"jobs\\\" in API group \\\"batch\\\" "
                    + "in the namespace \\\"shop\\\""));
            return true;
        });
        String grant = "forbidden (403): service account shop:migrator may not list jobs.batch in namespace shop; grant it: "
                + "kubectl create role sidecar-wait-migrator-jobs.batch --verb=get,list,watch --resource=jobs.batch -n shop; "
                + "kubectl create rolebinding sidecar-wait-migrator-jobs.batch --role=sidecar-wait-migrator-jobs.batch "
                + "--serviceaccount=shop:migrator -n shop (or the YAML in docs/kubernetes.md)";
        Path termination = dir.resolve("forbidden.termination");
        SidecarWaitProcess.Result wait = run(api.podEnv(), "wait", "--url", "k8s://job/migrate", "--timeout", "2s",
                "--termination-log", termination.toString());
        assertEquals(1, wait.exit(), wait.err());
        assertTrue(wait.err().contains(grant), wait.err());
        // without --verbose, the cause is in the log at once, and once: it will not go away by itself
        assertEquals(1, wait.err().lines().filter(line -> line.endsWith("\tinfo\tk8s://job/migrate: " + grant
                + " (the API server: jobs.batch is forbidden: User \"system:serviceaccount:shop:migrator\" cannot list "
                + "resource \"jobs\" in API group \"batch\" in the namespace \"shop\")")).count(), wait.err());
        assertFalse(wait.err().contains("asking again"), wait.err());
        assertTrue(Files.readString(termination).contains(grant), Files.readString(termination));
        SidecarWaitProcess.Result check = run(api.podEnv(), "check", "--request-timeout", "5s", "--url", "k8s://job/migrate");
        assertTrue(check.out().contains(grant), check.out());
        assertFalse(wait.err().contains(Files.readString(api.token).trim()), "the token was printed");
    }

    @Test
    void aTokenRotatedDuringTheWaitIsReadAgain() throws Exception {
        put(job("migrate", DONE, "\"succeeded\":1"));
        String first = KubeApi.tokenFor("shop", "migrator", "first");
        api.answer((line, out) -> {
            if (!api.tokens.get(api.tokens.size() - 1).equals(first)) {
                return false;
            }
            KubeApi.respond(out, 401, "", KubeApi.status(401, "Unauthorized", "Unauthorized"));
            return true;
        });
        Path err = dir.resolve("rotated.err");
        Process wait = started(err, "k8s://job/migrate");
        SidecarWaitProcess.awaitText(err, "did not accept the service account's token (401 Unauthorized)");
        Files.writeString(api.token, KubeApi.tokenFor("shop", "migrator", "second"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
    }

    /** A bookmark moves the version a watch resumes from; a watch cut mid-event resumes from it, without a new list. */
    @Test
    void aWatchCutMidEventIsResumedFromTheLastVersionSeen() throws Exception {
        put(job("migrate", "", "\"active\":1"));
        String bookmarked = api.client.batch().v1().jobs().inNamespace("shop").withName("migrate").get().getMetadata()
                .getResourceVersion();
        AtomicInteger watches = new AtomicInteger();
        api.answer((line, out) -> {
            if (!line.contains("watch=1") || watches.incrementAndGet() > 1) {
                return false;
            }
            KubeApi.watchHead(out);
            WatchRelay.chunk(out, "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Job\",\"apiVersion\":\"batch/v1\","
                    + "\"metadata\":{\"resourceVersion\":\"" + bookmarked + "\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}");
            out.write("40\r\n{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"batch/v1\",\"kind\":\"J".getBytes(StandardCharsets.UTF_8));
            out.flush();
            return true; // and the connection is closed
        });
        Path err = dir.resolve("cut.err");
        Process wait = started(err, "k8s://job/migrate");
        SidecarWaitProcess.awaitText(err, "; the watch: cut mid-event (resumed from the last version seen)");
        put(job("migrate", DONE, "\"succeeded\":1"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
        assertEquals(1, api.count("jobs?fieldSelector"), api.requests.toString());
        assertTrue(api.count("watch=1") >= 2, api.requests.toString());
        assertTrue(api.requests.get(2).contains("&resourceVersion=" + bookmarked + "&"), api.requests.toString());
    }

    /**
     * A Job deleted while it still runs (someone's kubectl delete, a Helm re-install) did not do its work: with or
     * without ?absent=ready the wait goes on for a Job of that name, and ends when one created again completes.
     */
    @Test
    void aJobDeletedBeforeItCompletedIsNotDoneAndOneCreatedAgainIs() throws Exception {
        put(job("migrate", "", "\"active\":1"));
        Path err = dir.resolve("deleted.err");
        Process absentReady = started(err, "k8s://job/migrate?absent=ready");
        Path strictErr = dir.resolve("deleted-strict.err");
        Process strict = started(strictErr, "k8s://job/migrate");
        try {
            SidecarWaitProcess.awaitText(err, "active 1");
            SidecarWaitProcess.awaitText(strictErr, "active 1");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (api.openWatches() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(20); // the stand-in replays no deletion from before a watch (WatchRelay)
            }
            api.client.batch().v1().jobs().inNamespace("shop").withName("migrate").delete();
            String deleted = ": deleted before it completed (active 1, succeeded 0, failed 0): not done; "
                    + "waiting for a Job of that name to be created again";
            SidecarWaitProcess.awaitText(err, "k8s://job/migrate?absent=ready" + deleted);
            SidecarWaitProcess.awaitText(strictErr, "k8s://job/migrate" + deleted);
            assertTrue(absentReady.isAlive() && strict.isAlive(), read(err));
            put(job("migrate", DONE, "\"succeeded\":1"));
            for (Process wait : new Process[] {absentReady, strict}) {
                assertTrue(wait.waitFor(30, TimeUnit.SECONDS), () -> "the wait did not end: " + read(err) + api.requests);
                assertEquals(0, wait.exitValue(), read(err));
            }
            assertTrue(read(strictErr).contains("\tinfo\tk8s://job/migrate is ready! (complete (1 succeeded))\n"), read(strictErr));
        } finally {
            SidecarWaitProcess.endTree(absentReady);
            SidecarWaitProcess.endTree(strict);
        }
    }

    /**
     * The grant a 403 prints applies as printed for a second account and for another resource: each pair gets a Role
     * and a RoleBinding of its own name (no AlreadyExists), each command in kubectl create role's and create
     * rolebinding's syntax, naming the resource refused and binding the account refused.
     */
    @Test
    void theGrantAForbiddenLinePrintsIsItsOwnForEachAccountAndResource() throws Exception {
        api.answer((line, out) -> {
            KubeApi.respond(out, 403, "", KubeApi.status(403, "Forbidden", "forbidden"));
            return true;
        });
        java.util.regex.Pattern grant = java.util.regex.Pattern.compile("may not list (\\S+) in namespace shop; grant it: "
                + "kubectl create role (\\S+) --verb=get,list,watch --resource=(\\S+) -n shop; kubectl create rolebinding "
                + "(\\S+) --role=(\\S+) --serviceaccount=shop:(\\S+) -n shop \\(");
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String account : new String[] {"migrator", "orders"}) {
            Files.writeString(api.token, KubeApi.tokenFor("shop", account, "first"));
            SidecarWaitProcess.Result check = run(api.podEnv(), "check", "--request-timeout", "5s", "--url",
                    "k8s://job/migrate", "--url", "k8s://svc/orders-db");
            assertEquals(1, check.exit(), check.out());
            java.util.regex.Matcher found = grant.matcher(check.out());
            int grants = 0;
            while (found.find()) {
                grants++;
                assertEquals(found.group(1), found.group(3), "the Role grants what was refused: " + found.group());
                assertEquals(found.group(2), found.group(4), "the binding has the Role's name: " + found.group());
                assertEquals(found.group(2), found.group(5), "the binding binds that Role: " + found.group());
                assertEquals(account, found.group(6), "the binding names the account refused: " + found.group());
                // RBAC's names are path segments; these are lower-case DNS subdomains too, which every kubectl takes
                assertTrue(found.group(2).matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?"), found.group(2));
                assertTrue(names.add(found.group(2)), "a second grant of one name, AlreadyExists: " + found.group(2));
            }
            assertEquals(2, grants, check.out());
        }
        assertEquals(java.util.Set.of("sidecar-wait-migrator-jobs.batch", "sidecar-wait-migrator-endpointslices.discovery.k8s.io",
                "sidecar-wait-orders-jobs.batch", "sidecar-wait-orders-endpointslices.discovery.k8s.io"), names);
    }

    @Test
    void aWatchTooOldIsListedAgain() throws Exception {
        put(job("migrate", "", "\"active\":1"));
        AtomicInteger watches = new AtomicInteger();
        api.answer((line, out) -> {
            if (!line.contains("watch=1") || watches.incrementAndGet() > 1) {
                return false;
            }
            KubeApi.watchHead(out);
            WatchRelay.chunk(out, "{\"type\":\"ERROR\",\"object\":" + KubeApi.status(410, "Expired",
                    "too old resource version: 1 (5)") + "}");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return true;
        });
        Path err = dir.resolve("gone.err");
        Process wait = started(err, "k8s://job/migrate");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (api.count("jobs?fieldSelector") < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        put(job("migrate", DONE, "\"succeeded\":1"));
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS), "the wait did not end");
        assertEquals(0, wait.exitValue(), Files.readString(err));
        assertEquals(2, api.count("jobs?fieldSelector"), api.requests.toString());
    }

    @Test
    void aBusyServersRetryAfterIsHonoured() throws Exception {
        put(job("migrate", DONE, "\"succeeded\":1"));
        AtomicInteger lists = new AtomicInteger();
        api.answer((line, out) -> {
            if (lists.incrementAndGet() > 1) {
                return false;
            }
            KubeApi.respond(out, 429, "Retry-After: 2\r\n", KubeApi.status(429, "TooManyRequests", "the server has received too many requests"));
            return true;
        });
        long start = System.nanoTime();
        SidecarWaitProcess.Result wait = waitFor("k8s://job/migrate", "30s");
        assertEquals(0, wait.exit(), wait.err());
        assertTrue(wait.err().contains("the API server is busy (429 Too Many Requests)"), wait.err());
        assertTrue(System.nanoTime() - start >= TimeUnit.SECONDS.toNanos(2), "asked again before Retry-After");
        assertEquals(2, api.count("jobs?fieldSelector"), api.requests.toString());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    private Process started(Path err, String url) throws Exception {
        return started(err, "wait", "--url", url, "--timeout", "40s", "--request-timeout", "2s", "--verbose");
    }

    @Test
    void whatAHostileServerSendsEndsTheWaitByItsDeadline() throws Exception {
        Map<String, String> answers = Map.of(
                "huge", "larger than 8192 KiB",
                "malformed", "not JSON: ",
                "silent", "not complete yet: active 1",
                "deep", "nested deeper than 64",
                "refusal", "forbidden (403): service account shop:migrator may not list jobs.batch");
        put(job("migrate", "", "\"active\":1"));
        for (Map.Entry<String, String> hostile : answers.entrySet()) {
            api.answer((line, out) -> {
                if (hostile.getKey().equals("silent") && !line.contains("watch=1")) {
                    return false; // listed; then a watch that never sends
                }
                switch (hostile.getKey()) {
                    case "huge" -> KubeApi.respond(out, 200, "", "{\"items\":[\"" + "x".repeat(9 << 20) + "\"]}");
                    case "malformed" -> KubeApi.respond(out, 200, "", "{\"items\":[{\"metadata\":{\"name\":\"migrate\"\u001b[2J}]}");
                    case "deep" -> KubeApi.respond(out, 200, "", "[".repeat(100_000));
                    case "refusal" -> KubeApi.respond(out, 403, "", "{\"message\":\"" + "x".repeat(1 << 20) + "\"}");
                    default -> {
                        KubeApi.watchHead(out);
                        Thread.sleep(30_000); // headers, then nothing
                    }
                }
                return true;
            });
            long start = System.nanoTime();
            SidecarWaitProcess.Result wait = waitFor("k8s://job/migrate", "3s");
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(1, wait.exit(), hostile.getKey() + ": " + wait.err());
            assertTrue(wait.err().contains(hostile.getValue()), hostile.getKey() + ": " + wait.err());
            assertFalse(wait.err().contains("\u001b"), hostile.getKey() + ": a control character was written");
            assertTrue(took < 3000 + 5000, hostile.getKey() + ": took " + took + " ms"); // the deadline, and a JVM's start
        }
    }

    @Test
    void withoutAPodsApiServerOrTokenTheLineSaysWhatToChange() throws Exception {
        Map<String, String> outside = new HashMap<>(api.podEnv());
        outside.remove("KUBERNETES_SERVICE_HOST");
        SidecarWaitProcess.Result notInAPod = run(outside, "wait", "--url", "k8s://job/migrate", "--timeout", "2s");
        assertEquals(2, notInAPod.exit(), notInAPod.err());
        assertTrue(notInAPod.err().contains("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: this is not a "
                + "Kubernetes pod"), notInAPod.err());
        Map<String, String> noToken = new HashMap<>(api.podEnv());
        noToken.put("SIDECAR_WAIT_K8S_TOKEN_FILE", dir.resolve("no-such-token").toString());
        SidecarWaitProcess.Result unmounted = run(noToken, "wait", "--url", "k8s://job/migrate", "--timeout", "2s");
        assertEquals(2, unmounted.exit(), unmounted.err());
        assertTrue(unmounted.err().contains("automountServiceAccountToken: false"), unmounted.err());
        Map<String, String> byName = new HashMap<>(api.podEnv());
        byName.put("KUBERNETES_SERVICE_HOST", "localhost"); // the certificate names 127.0.0.1, not localhost
        SidecarWaitProcess.Result wrongName = run(byName, "check", "--request-timeout", "5s", "--url", "k8s://job/migrate");
        assertEquals(1, wrongName.exit(), wrongName.out());
        assertTrue(wrongName.out().contains("localhost"), wrongName.out());
    }
}
