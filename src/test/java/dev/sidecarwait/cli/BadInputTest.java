package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every mistake gets one line that names the flag (or variable) and the value, and exit code 2, before any
 * probing: were the command ever to get as far as waiting, it would wait its whole default timeout and exit 1.
 */
class BadInputTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--url https://localhost:15020/healthz/ready | --url | 'https://localhost:15020/healthz/ready'",
            "--url ftp://localhost/ | --url | 'ftp://localhost/'",
            "--url http://local^host/ | --url | 'http://local^host/'",
            "--url http://localhost:70000/ready | --url | '70000'",
            "--url tcp://localhost | --url | 'tcp://localhost'",
            "--timeout 5x | --timeout | '5x'",
            "--timeout -5s | --timeout | '-5s'",
            "--timeout 0s | --timeout | '0s'",
            "--timeout 90 | --timeout | '90'",
            "--timeout 66666666666666h | --timeout | too large (at most 8760h, a year)",
            "--period 99999999999999999999ms | --period | too large",
            "--supervise | --supervise | is about the command after --",
            "--period soon | --period | 'soon'",
            "--request-timeout 1.5s | --request-timeout | '1.5s'",
            "--timeoutSeconds -1 | --timeoutSeconds | '-1'",
            "--timeoutSeconds 0 | --timeoutSeconds | '0'",
            "--timeoutSeconds 5s | --timeoutSeconds | '5s'",
            "--periodMillis 0 | --periodMillis | '0'",
            "--expect-status 20 | --expect-status | '20'",
            "--expect-status 300-200 | --expect-status | '300-200'",
            "--on-timeout maybe | --on-timeout | 'maybe'",
            "--log-format xml | --log-format | 'xml'",
            "--timeout 5s --timeoutSeconds 5 | --timeout and --timeoutSeconds | give only one",
            "--period 1s --periodMillis 5 | --period and --periodMillis | give only one",
            "--verbose --quiet | --verbose and --quiet | together",
            "--no-such-flag | unknown option | '--no-such-flag'",
            "-Dfoo=bar | unknown option | '-Dfoo=bar'",
            "-Xmx5m | unknown option | '-Xmx5m'",
            "stray | unexpected argument | 'stray'"})
    void flagMistakes(String args, String names, String value) {
        CliRun run = CliRun.run(Map.of(), ("wait --url tcp://127.0.0.1:1 " + args).split(" "));
        assertUsageError(run, names, value);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "SIDECAR_WAIT_URL | https://localhost/ready | 'https://localhost/ready'",
            "SIDECAR_WAIT_URL | http://localhost/,nope | 'nope'",
            "SIDECAR_WAIT_TIMEOUT | 60 | '60'",
            "SIDECAR_WAIT_TIMEOUT | 0ms | '0ms'",
            "SIDECAR_WAIT_PERIOD | fast | 'fast'",
            "SIDECAR_WAIT_REQUEST_TIMEOUT | -1s | '-1s'",
            "SIDECAR_WAIT_EXPECT_STATUS | ok | 'ok'",
            "SIDECAR_WAIT_ON_TIMEOUT | ignore | 'ignore'",
            "SIDECAR_WAIT_LOG_FORMAT | yaml | 'yaml'",
            "SIDECAR_WAIT_DISABLED | maybe | 'maybe'",
            "SIDECAR_WAIT_SKIP_OUTSIDE_KUBERNETES | sometimes | 'sometimes'"})
    void environmentMistakes(String name, String value, String quoted) {
        Map<String, String> env = new HashMap<>();
        env.put(name, value);
        String[] args = name.equals("SIDECAR_WAIT_URL") ? new String[] {"wait"} : new String[] {"wait", "--url", "tcp://127.0.0.1:1"};
        assertUsageError(CliRun.run(env, args), name, quoted);
    }

    private static void assertUsageError(CliRun run, String names, String value) {
        assertEquals(2, run.exit(), run.err());
        assertEquals(1, run.errLines(), "one line: " + run.err());
        assertTrue(run.err().startsWith("sidecar-wait wait: "), run.err());
        assertTrue(run.err().contains(names), "names " + names + ": " + run.err());
        assertTrue(run.err().contains(value), "shows " + value + ": " + run.err());
        assertTrue(!run.err().contains("Exception") && !run.err().contains("\tat "), "no stack trace: " + run.err());
        assertEquals("", run.out());
    }
}
