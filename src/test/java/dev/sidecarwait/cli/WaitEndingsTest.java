package dev.sidecarwait.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.sidecarwait.SidecarWaitProcess;
import dev.sidecarwait.servers.RealServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How every wait ends: the last line, the termination message, the mirror to PID 1, the quit's remedies. */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class WaitEndingsTest {

    @RegisterExtension
    static WireMockExtension proxy = WireMockExtension.newInstance()
            .options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")).build();

    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>(Map.of("SIDECAR_WAIT_ADMIN_URL", "none"));

    private String url(String path) {
        return "http://localhost:" + proxy.getPort() + path;
    }

    private static String lastLine(CliRun run) {
        return run.err().lines().reduce((first, second) -> second).orElse("");
    }

    @Test
    void aTimeoutEndsWithOneSummaryLineAndTheTerminationMessage() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(503)));
        Path message = Files.writeString(dir.resolve("termination-log"), "");
        CliRun run = CliRun.run(env, "wait", "--url", url("/healthz/ready"), "--timeout", "600ms", "--period", "100ms",
                "--termination-log", message.toString());
        assertEquals(1, run.exit(), run.err());
        String last = lastLine(run);
        assertTrue(last.matches(".*\terror\tsidecar-wait: NOT READY before the timeout after 0\\.\\d s; attempts: "
                + "http://localhost:\\d+/healthz/ready [1-7]; not ready: http://localhost:\\d+/healthz/ready: HTTP status code 503; "
                + "exit code 1"), last);
        assertEquals(last.substring(last.indexOf("sidecar-wait: ")), Files.readString(message));
    }

    @Test
    void successLeavesTheTerminationMessageAlone() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200)));
        Path message = Files.writeString(dir.resolve("termination-log"), "the app's own message");
        CliRun run = CliRun.run(env, "wait", "--url", url("/healthz/ready"), "--termination-log", message.toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tEnvoy is ready!\n"), "pilot-agent's wording stays: " + run.err());
        assertTrue(lastLine(run).matches(".*\tinfo\tsidecar-wait: ready after \\d+\\.\\d s; attempts: \\S+ \\d+; exit code 0"),
                lastLine(run));
        assertEquals("the app's own message", Files.readString(message));
    }

    @Test
    void aLoopbackEndpointThatIsNotTheProxysIsNamedByItsUrlNotAsEnvoy() {
        proxy.stubFor(get("/v1.0/healthz/outbound").willReturn(aResponse().withStatus(200)));
        CliRun run = CliRun.run(env, "wait", "--url", url("/v1.0/healthz/outbound"));
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tWaiting for " + url("/v1.0/healthz/outbound") + " to be ready"), run.err());
        assertTrue(run.err().contains("\tinfo\t" + url("/v1.0/healthz/outbound") + " is ready!\n"), run.err());
        assertFalse(run.err().contains("Envoy"), "not Envoy's readiness endpoint (not its port, not its path): " + run.err());
    }

    @Test
    void theDefaultPathIsWrittenOnlyWhenItExistsAndNoneTurnsItOff() throws Exception {
        Path absent = dir.resolve("absent");
        CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_TERMINATION_LOG", absent.toString()), "wait", "--url",
                "tcp://127.0.0.1:1", "--timeout", "200ms");
        assertEquals(1, run.exit());
        assertTrue(Files.exists(absent), "an explicit path is created");

        Path off = Files.writeString(dir.resolve("off"), "");
        CliRun none = CliRun.run(Map.of(), "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "200ms",
                "--termination-log", "none");
        assertEquals(1, none.exit());
        assertEquals("", Files.readString(off));
    }

    @Test
    void aUsageErrorIsATerminationMessageToo() throws Exception {
        Path message = dir.resolve("termination-log");
        CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_TIMEOUT", "5x"), "wait", "--termination-log", message.toString());
        assertEquals(2, run.exit());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(Files.readString(message).startsWith("sidecar-wait wait: invalid value for SIDECAR_WAIT_TIMEOUT: '5x'"),
                Files.readString(message));
    }

    /**
     * A typo in a postStart hook: whatever the mistake and wherever it is found (picocli's parsing or the command's
     * settling), its one line reaches the termination log, configured by the flag (either spelling) or the variable.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--timeout 0s | invalid value for --timeout: '0s' must be more than zero",
            "--no-such-flag | unknown option: '--no-such-flag'",
            "--url localhost:15020 | invalid value for --url: 'localhost:15020'",
            "--period -1s | invalid value for --period: '-1s' is negative",
            "--verbose --quiet | --verbose and --quiet cannot be used together",
            "--timeoutSeconds 5 --timeout 5s | --timeout and --timeoutSeconds set the same thing"})
    void everyUsageErrorReachesTheTerminationLog(String args, String expected) throws Exception {
        for (String form : List.of("flag", "flag=", "variable")) {
            Path message = Files.writeString(dir.resolve("termination-log-" + form), "");
            List<String> line = new ArrayList<>(List.of("wait"));
            Map<String, String> variables = new HashMap<>();
            switch (form) {
                case "flag" -> line.addAll(List.of("--termination-log", message.toString()));
                case "flag=" -> line.add("--termination-log=" + message);
                default -> variables.put("SIDECAR_WAIT_TERMINATION_LOG", message.toString());
            }
            line.addAll(List.of(args.split(" ")));
            CliRun run = CliRun.run(variables, line.toArray(String[]::new));
            assertEquals(2, run.exit(), run.err());
            assertEquals(1, run.errLines(), run.err());
            String written = Files.readString(message);
            assertTrue(written.startsWith("sidecar-wait wait: " + expected) && written.endsWith("; exit code 2"),
                    form + ": " + written);
            assertFalse(written.contains("--help"), "the hint is for the terminal: " + written);
        }
    }

    @Test
    void aUsageErrorReachesThePid1MirrorWhenAskedFor() throws Exception {
        Path pid1Stderr = dir.resolve("pid1-usage.txt");
        Process process = inPidNamespace(pid1Stderr, "wait", "--log-to-pid1", "--timeout", "0s");
        assertEquals(2, process.exitValue());
        String mirrored = Files.readString(pid1Stderr);
        assertTrue(mirrored.startsWith("sidecar-wait wait: invalid value for --timeout: '0s' must be more than zero"), mirrored);

        Path viaVariable = dir.resolve("pid1-usage-variable.txt");
        Process unknown = inPidNamespace(viaVariable, Map.of("SIDECAR_WAIT_LOG_TO_PID1", "true"), "drain", "--no-such-flag");
        assertEquals(2, unknown.exitValue());
        assertTrue(Files.readString(viaVariable).startsWith("sidecar-wait drain: unknown option: '--no-such-flag'"),
                Files.readString(viaVariable));
    }

    @Test
    void aTerminationLogThatCannotBeWrittenIsSaidInWords() {
        CliRun run = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "200ms", "--termination-log",
                dir.resolve("no-such-dir/termination-log").toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("\twarn\tCannot write the termination message to " + dir.resolve("no-such-dir/termination-log")
                + ": no such directory\n"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }

    @Test
    void aUrlGivenTwiceIsAwaitedOnce() {
        CliRun flags = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--url", "tcp://127.0.0.1:1", "--timeout", "300ms");
        assertEquals(1, flags.exit());
        assertTrue(lastLine(flags).matches(".*; attempts: tcp://127\\.0\\.0\\.1:1 \\d+; not ready: tcp://127\\.0\\.0\\.1:1: "
                + "connection refused; exit code 1"), lastLine(flags));
        Map<String, String> variable = new HashMap<>(env);
        variable.put("SIDECAR_WAIT_URL", "tcp://127.0.0.1:1,tcp://127.0.0.1:1");
        CliRun fromEnv = CliRun.run(variable, "check", "--output", "json");
        assertEquals(1, fromEnv.out().split("\"url\"", -1).length - 1, fromEnv.out());
    }

    @Test
    void skippedAndContinuedWaitsEndWithTheirOwnLastLine() {
        CliRun disabled = CliRun.run(Map.of("SIDECAR_WAIT_DISABLED", "true"), "wait");
        assertEquals(0, disabled.exit());
        assertTrue(lastLine(disabled).endsWith("\tinfo\tsidecar-wait: skipped: SIDECAR_WAIT_DISABLED is true; exit code 0"),
                disabled.err());
        CliRun continued = CliRun.run(env, "wait", "--url", "tcp://127.0.0.1:1", "--timeout", "200ms", "--on-timeout", "continue");
        assertEquals(0, continued.exit());
        assertTrue(lastLine(continued).contains("sidecar-wait: NOT READY before the timeout, continuing (--on-timeout continue)"),
                continued.err());
        assertTrue(lastLine(continued).endsWith("not ready: tcp://127.0.0.1:1: connection refused; exit code 0"), continued.err());
    }

    @Test
    void aRequestCutShortByTheOverallTimeoutSaysSoWhenItIsAllThereIs() {
        proxy.stubFor(get("/slow").willReturn(aResponse().withStatus(200).withFixedDelay(3000)));
        CliRun run = CliRun.run(env, "wait", "--url", url("/slow"), "--timeout", "300ms", "--request-timeout", "500ms");
        assertEquals(1, run.exit());
        assertTrue(lastLine(run).contains("/slow: no answer before the overall timeout; exit code 1"), lastLine(run));
    }

    @Test
    void anAttemptCutShortByTheOverallTimeoutLeavesTheWordsOfTheOneBefore() {
        // the first attempt's 503 comes at 0.6 s, the second's would at 1.2: the overall 1 s cuts it. Margins of 0.4 s
        // each way: qemu-user's arm64 binary, on a loaded machine, took over 0.1 s more than the server's delay
        proxy.stubFor(get("/unavailable").willReturn(aResponse().withStatus(503).withFixedDelay(600)));
        CliRun run = CliRun.run(env, "wait", "--url", url("/unavailable"), "--timeout", "1s", "--request-timeout", "1500ms",
                "--period", "100ms");
        assertEquals(1, run.exit());
        assertTrue(lastLine(run).contains("/unavailable: HTTP status code 503; exit code 1"), lastLine(run));
    }

    @Test
    void theTerminationMessageIsCappedAtTheKubeletsLimitBetweenCharacters() throws Exception {
        Path message = dir.resolve("termination-log");
        List<String> args = new ArrayList<>(List.of("wait", "--timeout", "300ms", "--termination-log", message.toString()));
        for (int i = 0; i < 60; i++) {
            args.add("--url");
            args.add("http://127.0.0.1:1/" + "é".repeat(40 + i % 2) + "/" + i); // two bytes a character
        }
        CliRun run = CliRun.run(env, args.toArray(String[]::new));
        assertEquals(1, run.exit());
        byte[] written = Files.readAllBytes(message);
        assertTrue(written.length <= 4096 && written.length > 4090, "length " + written.length);
        String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(written)).toString();
        assertTrue(text.startsWith("sidecar-wait: NOT READY before the timeout") && text.endsWith(" [cut]"), text);
    }

    @Test
    void everyLogLineCanBeMirroredToTheMainProcessesStderr() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200)));
        Path pid1Stderr = dir.resolve("pid1-stderr.txt");
        // A PID namespace of the test's own: bash is PID 1 there (dash would apply the child's redirection to
        // itself), and its stderr is a file the test reads.
        Process process = inPidNamespace(pid1Stderr, "wait", "--url", url("/healthz/ready"), "--log-to-pid1");
        assertEquals(0, process.exitValue(), Files.readString(pid1Stderr));
        String mirrored = Files.readString(pid1Stderr);
        assertTrue(mirrored.contains("\tinfo\tEnvoy is ready!\n"), mirrored);
        assertTrue(mirrored.contains("\tinfo\tsidecar-wait: ready after"), mirrored);
    }

    @Test
    void aMirrorThatCannotBeOpenedIsOneWarning() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200)));
        Path own = dir.resolve("own-stderr.txt");
        // PID 1 (bash) closes its own stderr, so there is no /proc/1/fd/2 to open.
        List<String> command = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc", "bash", "-c",
                "exec 3>&2 2>&-; \"$@\" 2>\"$0\"; exit $?", own.toString()));
        command.addAll(SidecarWaitProcess.builder("wait", "--url", url("/healthz/ready")).command());
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("SIDECAR_WAIT_LOG_TO_PID1", "true");
        Process process = builder.start();
        assertTrue(SidecarWaitProcess.exited(process, 60));
        String err = Files.readString(own);
        assertEquals(0, process.exitValue(), err);
        assertEquals(1, err.lines().filter(line -> line.contains("\twarn\t")).count(), err);
        assertTrue(err.contains("\twarn\tCannot mirror log lines to the main process's stderr (/proc/1/fd/2)"), err);
    }

    @Test
    void aCommandThatCannotStartIsATerminationMessageButTheCommandsOwnFailureIsNot() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200)));
        Path message = Files.writeString(dir.resolve("termination-log"), "");
        SidecarWaitProcess.Result missing = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url("/healthz/ready"),
                "--termination-log", message.toString(), "--", "no-such-command-for-sidecar-wait");
        assertEquals(127, missing.exit());
        assertTrue(Files.readString(message).contains("no-such-command-for-sidecar-wait: command not found; exit code 127"),
                Files.readString(message));

        Files.writeString(message, "");
        SidecarWaitProcess.Result failed = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url("/healthz/ready"),
                "--termination-log", message.toString(), "--", "sh", "-c", "exit 3");
        assertEquals(3, failed.exit());
        assertTrue(failed.err().contains("sidecar-wait: ready after"), failed.err());
        assertTrue(failed.err().contains(SidecarWaitProcess.NATIVE ? "; handing over: sh now runs in its place"
                : "; sh exited with code 3; exit code 3"), failed.err());
        assertEquals("", Files.readString(message), "the app's termination message is the app's own");
    }

    /**
     * pflag keeps the last of a flag given twice (a chart that appends an override relies on it), and pilot-agent's
     * first line says "1 seconds": the binary's command tree is made while the image is built, so both on each build.
     */
    @Test
    void aFlagGivenTwiceTakesTheLastAndTheFirstLineHasPilotAgentsWords() throws Exception {
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(env, null, "wait", "--url", "http://127.0.0.1:1/healthz/ready",
                "--termination-log", "none", "--timeoutSeconds", "40", "--periodMillis", "100", "--timeoutSeconds", "1");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("\tinfo\tWaiting for Envoy proxy to be ready (timeout: 1 seconds)...\n"), run.err());
        // 1.0 s, or a tenth more on a loaded machine (qemu-user's arm64 binary measured 1.1 beside a build): not 40
        assertTrue(run.err().matches("(?s).*sidecar-wait: NOT READY before the timeout after 1\\.[01] s.*"), run.err());
    }

    /**
     * A postStart hook is stopped so when the pod is deleted while it waits: the wait alone (no command) ends as every
     * wait does, with its last line and the termination message, and 128+N. USR1's default would kill it unheard.
     */
    @ParameterizedTest
    @CsvSource({"TERM, 143", "HUP, 129", "USR1, 138"})
    void aWaitAloneStoppedByASignalSaysSoAndLeavesTheTerminationMessage(String signal, int exit) throws Exception {
        Path message = Files.writeString(dir.resolve("termination-log"), "");
        Path err = dir.resolve("err.txt");
        Process wait = SidecarWaitProcess.builder("wait", "--url", "http://127.0.0.1:1/ready", "--timeout", "1h",
                        "--verbose", "--termination-log", message.toString())
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            SidecarWaitProcess.awaitText(err, "Not ready yet: http://127.0.0.1:1/ready: connection refused");
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(wait.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            assertTrue(SidecarWaitProcess.exited(wait, 20), "the wait ended");
            assertEquals(exit, wait.exitValue());
            String log = Files.readString(err);
            assertTrue(log.contains("\twarn\tReceived SIG" + signal + " while waiting for http://127.0.0.1:1/ready: the wait ends\n"),
                    log);
            String last = log.strip().substring(log.strip().lastIndexOf('\n') + 1);
            assertTrue(last.matches(".*\terror\tsidecar-wait: NOT READY, stopped by a signal after \\d+\\.\\d s; attempts: "
                    + "http://127.0.0.1:1/ready \\d+; not ready: http://127.0.0.1:1/ready: connection refused; SIG" + signal
                    + " arrived while waiting; exit code " + exit), last);
            assertEquals(last.substring(last.indexOf("sidecar-wait: ")), Files.readString(message));
        } finally {
            SidecarWaitProcess.endTree(wait);
        }
    }

    @Test
    void quitAnswersComeWithARemedy() {
        proxy.stubFor(post("/shutdown").willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "text/plain").withBody("shutdown endpoint is not enabled\n")));
        proxy.stubFor(post("/quitquitquit").willReturn(aResponse().withStatus(403).withBody("forbidden\n")));
        CliRun linkerd = CliRun.run(Map.of(), "quit", "--url", url("/shutdown"));
        assertEquals(1, linkerd.exit());
        assertTrue(linkerd.err().contains("answered HTTP 404 (shutdown endpoint is not enabled); Linkerd's proxy has "
                + "/shutdown turned off: annotate the workload with config.linkerd.io/proxy-admin-shutdown: enabled"), linkerd.err());
        CliRun forbidden = CliRun.run(Map.of(), "quit", "--url", url("/quitquitquit"));
        assertTrue(forbidden.err().contains("answered HTTP 403 (forbidden); the endpoint only accepts requests from localhost"),
                forbidden.err());
        // Vault Agent without agent_api { enable_quit = true }: 404 (hashicorp/vault, command/agent_test.go, TestAgent_Quit)
        proxy.stubFor(post("/agent/v1/quit").willReturn(aResponse().withStatus(404)));
        CliRun vault = CliRun.run(Map.of(), "quit", "--url", url("/agent/v1/quit"));
        assertEquals(1, vault.exit());
        assertTrue(vault.err().contains("answered HTTP 404; Vault Agent has its quit endpoint turned off: annotate the workload "
                + "with vault.hashicorp.com/agent-enable-quit: \"true\""), vault.err());
    }

    @Test
    void theCloudSqlProxysAdminPortRefusingSaysHowToTurnItOn() throws Exception {
        try (java.net.ServerSocket free = new java.net.ServerSocket(9091, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            assertTrue(free.isBound(), "port 9091 is free here: the proxy's admin port, which nothing answers on now");
        }
        CliRun cloudSql = CliRun.run(Map.of(), "quit", "--url", "http://127.0.0.1:9091/quitquitquit");
        assertEquals(0, cloudSql.exit(), cloudSql.err());
        assertTrue(cloudSql.err().contains("connection refused (nothing to quit; a Kubernetes native sidecar needs no quit, or "
                + "check the URL; the Cloud SQL Auth Proxy serves it only when started with --quitquitquit)"), cloudSql.err());
    }

    @Test
    void theWrappersExitCodeIsTheCommandsWhateverTheQuitAnswered() throws Exception {
        proxy.stubFor(get("/healthz/ready").willReturn(aResponse().withStatus(200)));
        proxy.stubFor(post("/shutdown").willReturn(aResponse().withStatus(404).withBody("shutdown endpoint is not enabled\n")));
        SidecarWaitProcess.Result run = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url("/healthz/ready"),
                "--quit-url", url("/shutdown"), "--", "sh", "-c", "exit 4");
        assertEquals(4, run.exit(), run.err());
        assertTrue(run.err().contains("config.linkerd.io/proxy-admin-shutdown: enabled"), run.err());
        int closed = RealServer.freePort();
        SidecarWaitProcess.Result gone = SidecarWaitProcess.run(Map.of(), null, "wait", "--url", url("/healthz/ready"),
                "--quit-url", "http://127.0.0.1:" + closed + "/quitquitquit", "--", "true");
        assertEquals(0, gone.exit(), gone.err());
        assertFalse(gone.err().contains("\terror\t") || gone.err().contains("\twarn\t"), gone.err());
    }

    private static Process inPidNamespace(Path pid1Stderr, String... args) throws Exception {
        return inPidNamespace(pid1Stderr, Map.of(), args);
    }

    private static Process inPidNamespace(Path pid1Stderr, Map<String, String> variables, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc", "bash", "-c",
                "\"$@\" 2>/dev/null; exit $?", "sh"));
        command.addAll(SidecarWaitProcess.builder(args).command());
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(pid1Stderr.toFile());
        builder.environment().putAll(variables);
        Process process = builder.start();
        if (!SidecarWaitProcess.exited(process, 60)) {
            throw new AssertionError("did not finish");
        }
        return process;
    }
}
