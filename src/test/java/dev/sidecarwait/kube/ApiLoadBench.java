package dev.sidecarwait.kube;

import dev.sidecarwait.servers.KubeApi;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What pods waiting on one Job cost the API server, by tool, run by scripts/bench-kube.sh: the requests the tests' API
 * server (servers/KubeApi) sees from N processes of sidecar-wait's {@code k8s://job/migrate} and of {@code kubectl wait
 * --for=condition=complete job/migrate}, started at once, the Job completed T seconds later; then what each does when
 * the Job is not there (deleted after its TTL). Each kubectl has a cache directory of its own, as a new pod's has.
 *
 * <p>Arguments: pods, seconds, the sidecar-wait command (one word: a binary, or a jar run with java -jar), the kubectl
 * binary, the Markdown file to write.
 */
public final class ApiLoadBench {

    /** Aggregated discovery (apidiscovery.k8s.io/v2, GA in 1.30) as client-go asks for it in its Accept header. */
    private static final String DISCOVERY_TYPE = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    private static final String ACTIVE = KubeTargetsProcessTest.job("migrate", "", "\"active\":1");
    private static final String COMPLETE = KubeTargetsProcessTest.job("migrate",
            KubeTargetsProcessTest.condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods"),
            "\"succeeded\":1");

    private final KubeApi api;
    private final Path dir;
    private final List<String> sidecarWait;
    private final String kubectl;

    private ApiLoadBench(KubeApi api, Path dir, List<String> sidecarWait, String kubectl) {
        this.api = api;
        this.dir = dir;
        this.sidecarWait = sidecarWait;
        this.kubectl = kubectl;
    }

    public static void main(String[] args) throws Exception {
        int pods = Integer.parseInt(args[0]);
        int seconds = Integer.parseInt(args[1]);
        List<String> sidecarWait = args[2].endsWith(".jar") ? List.of("java", "-jar", args[2]) : List.of(args[2]);
        Path dir = Files.createTempDirectory("bench-kube");
        try (KubeApi api = KubeApi.start(dir)) {
            ApiLoadBench bench = new ApiLoadBench(api, dir, sidecarWait, args[3]);
            Files.writeString(dir.resolve("kubeconfig"), bench.kubeconfig());
            StringBuilder report = new StringBuilder("| " + pods + " pods, the Job completed after " + seconds
                    + " s | discovery | GET | list | watch | in all | exit codes |\n|---|---|---|---|---|---|---|\n");
            report.append(bench.load("sidecar-wait `k8s://job/migrate`", pods, seconds, bench::sidecarWait));
            report.append(bench.load("`kubectl wait --for=condition=complete job/migrate`", pods, seconds, bench::kubectlWait));
            report.append("\n| the Job not there (deleted after its TTL) | after 6 s |\n|---|---|\n");
            report.append(bench.absent("sidecar-wait `k8s://job/migrate`", bench.sidecarWait(0)));
            report.append(bench.absent("sidecar-wait `k8s://job/migrate?absent=ready`", bench.sidecarWait(0, "?absent=ready")));
            report.append(bench.absent("`kubectl wait --for=condition=complete job/migrate`", bench.kubectlWait(0)));
            Files.writeString(Path.of(args[4]), report);
            System.out.print(report);
        }
    }

    private interface Command {
        ProcessBuilder pod(int index) throws IOException;
    }

    private String load(String tool, int pods, int seconds, Command command) throws Exception {
        api.reset();
        api.answer(ApiLoadBench::discovery);
        api.client.resource(ACTIVE).inNamespace("shop").create();
        List<Process> waits = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            waits.add(command.pod(i).start());
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        api.client.resource(COMPLETE).inNamespace("shop").update();
        List<String> exits = new ArrayList<>();
        for (Process wait : waits) {
            exits.add(wait.waitFor(60, TimeUnit.SECONDS) ? String.valueOf(wait.exitValue()) : "still waiting");
            wait.destroyForcibly();
        }
        long discovery = count(ApiLoadBench::isDiscovery);
        long get = count(target -> target.endsWith("/jobs/migrate"));
        long watch = count(target -> target.contains("watch=1") || target.contains("watch=true"));
        long list = count(target -> target.contains("/jobs?")) - watch;
        return "| " + tool + " | " + discovery + " | " + get + " | " + list + " | " + watch + " | " + api.requests.size()
                + " | " + String.join(" ", exits.stream().distinct().toList()) + " |\n";
    }

    private String absent(String tool, ProcessBuilder command) throws Exception {
        api.reset();
        api.answer(ApiLoadBench::discovery);
        Path err = dir.resolve("absent-" + System.nanoTime() + ".err");
        Process wait = command.redirectError(err.toFile()).start();
        boolean ended = wait.waitFor(6, TimeUnit.SECONDS);
        wait.destroyForcibly().waitFor();
        List<String> lines = Files.readAllLines(err).stream().filter(line -> !line.isBlank()).toList();
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).replaceFirst("^\\S+Z\\t\\w+\\t", "");
        return "| " + tool + " | " + (ended ? "exit " + wait.exitValue() : "waiting") + ": `" + last.replace("|", "\\|")
                + "` |\n";
    }

    private ProcessBuilder sidecarWait(int index) {
        return sidecarWait(index, "");
    }

    private ProcessBuilder sidecarWait(int index, String query) {
        List<String> command = new ArrayList<>(sidecarWait);
        command.addAll(List.of("wait", "--url", "k8s://job/migrate" + query, "--timeout", "120s", "--request-timeout", "2s",
                "--verbose"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(api.podEnv());
        return builder;
    }

    private ProcessBuilder kubectlWait(int index) throws IOException {
        Path cache = Files.createDirectories(dir.resolve("kubectl-cache-" + index + "-" + System.nanoTime()));
        return new ProcessBuilder(kubectl, "--kubeconfig", dir.resolve("kubeconfig").toString(), "--cache-dir",
                cache.toString(), "wait", "--for=condition=complete", "job/migrate", "--timeout=120s")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    }

    /** A pod's service account as kubectl reads it from a kubeconfig (in a pod it finds the same in-cluster). */
    private String kubeconfig() {
        return "apiVersion: v1\nkind: Config\nclusters:\n- name: pod\n  cluster:\n    server: https://127.0.0.1:" + api.port
                + "\n    certificate-authority: " + api.caCert + "\nusers:\n- name: migrator\n  user:\n    tokenFile: "
                + api.token + "\ncontexts:\n- name: pod\n  context:\n    cluster: pod\n    user: migrator\n    namespace: shop\n"
                + "current-context: pod\n";
    }

    private long count(java.util.function.Predicate<String> target) {
        synchronized (api.requests) {
            return api.requests.stream().map(line -> line.split(" ")[1]).filter(target).count();
        }
    }

    private static boolean isDiscovery(String target) {
        String path = target.split("\\?")[0];
        return path.equals("/api") || path.equals("/apis") || path.matches("/api/v1|/apis/[^/]+(/[^/]+)?");
    }

    /** The mock serves no discovery: the core group's and batch's, aggregated, as a 1.33 API server sends them. */
    private static boolean discovery(String requestLine, OutputStream out) throws IOException {
        String path = requestLine.split(" ")[1].split("\\?")[0];
        String items;
        if (path.equals("/api")) {
            items = "{\"metadata\":{},\"versions\":[{\"version\":\"v1\",\"freshness\":\"Current\",\"resources\":["
                    + resource("", "pods", "pod", "Pod") + "," + resource("", "services", "service", "Service") + "]}]}";
        } else if (path.equals("/apis")) {
            items = "{\"metadata\":{\"name\":\"batch\"},\"versions\":[{\"version\":\"v1\",\"freshness\":\"Current\",\"resources\":["
                    + resource("batch", "jobs", "job", "Job") + "]}]}";
        } else {
            return false;
        }
        byte[] body = ("{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":\"apidiscovery.k8s.io/v2\",\"metadata\":{},"
                + "\"items\":[" + items + "]}").getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + DISCOVERY_TYPE + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        return true;
    }

    private static String resource(String group, String plural, String singular, String kind) {
        return "{\"resource\":\"" + plural + "\",\"singularResource\":\"" + singular + "\",\"scope\":\"Namespaced\","
                + "\"responseKind\":{\"group\":\"" + group + "\",\"version\":\"v1\",\"kind\":\"" + kind + "\"},"
                + "\"verbs\":[\"get\",\"list\",\"watch\",\"create\",\"update\",\"patch\",\"delete\"]}";
    }
}
