package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every mistake gets one line that names the flag (or variable) and the value, and exit code 2, before any
 * probing: were the command ever to get as far as waiting, it would wait its whole default timeout and exit 1.
 */
class BadInputTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--url tls://localhost | --url | 'tls://localhost'",
            "--url postgres://db/x?sslmode=on | --url | 'on'",
            "--url nats://bus:4222?tls=yes | --url | 'yes'",
            "--insecure --url postgres://db:5432/x?sslmode=verify-full | --insecure | 'postgres://db:5432/x?sslmode=verify-full', which asks for its server to be verified",
            "--insecure --url mysql://db:3306/?ssl-mode=VERIFY_CA | --insecure | 'mysql://db:3306/?ssl-mode=VERIFY_CA'",
            "--cacert /no/such/ca.crt | --cacert | '/no/such/ca.crt'",
            "--cert /no/such/tls.crt | --cert | '/no/such/tls.crt'",
            "--key /no/such/tls.key | --key | '/no/such/tls.key'",
            "--cert /no/such/tls.crt --key /no/such/tls.key | --cert | '/no/such/tls.crt'",
            "--url ftp://localhost/ | --url | 'ftp://localhost/'",
            "--url http://local^host/ | --url | 'http://local^host/'",
            "--url http://localhost:70000/ready | --url | '70000'",
            "--url tcp://localhost | --url | 'tcp://localhost'",
            "--url k8s://job | --url | 'k8s://job'",
            "--url k8s://job/migrate?ns=shop | --url | 'ns'",
            "--url k8s://svc/db?endpoints=0 | --url | 'k8s://svc/db?endpoints=0'",
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
            "SIDECAR_WAIT_URL | rediss://cache:0 | 'rediss://cache:0'",
            "SIDECAR_WAIT_URL | k8s://certs.cert-manager.io/web | 'k8s://certs.cert-manager.io/web'",
            "SIDECAR_WAIT_CACERT | /no/such/ca.crt | '/no/such/ca.crt'",
            "SIDECAR_WAIT_INSECURE | sometimes | 'sometimes'",
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

    /**
     * Where no user or password is sent (a scheme without a login, the proxy's own URLs), user information is refused
     * in one line naming where it came from, and the secret is printed nowhere, not in that line, not in the
     * termination log.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "wait --url tcp://admin:s3cret@db:5432 | --url",
            "wait --url grpc://app:s3cret@orders:50051 | --url",
            "wait --url tls://app:s3cret@orders:443 | --url",
            "wait --url http://app:p@s3cret@orders:80/ | --url",
            "wait --quit-url http://admin:s3cret@localhost:15020/quitquitquit -- true | --quit-url",
            "wait --admin-url http://admin:s3cret@localhost:15000 | --admin-url",
            "check --admin-url http://admin:s3cret@localhost:15000 | --admin-url",
            "quit --url http://admin:s3cret@localhost:15020/quitquitquit | --url",
            "drain --admin-url http://admin:s3cret@localhost:15000 --source envoy | --admin-url",
            "wait http://admin:s3cret@stray/ | unexpected argument"})
    void userInformationInAnyUrlIsRefusedAndNeverPrinted(String args, String names) throws Exception {
        java.nio.file.Path message = java.nio.file.Files.createTempFile("termination", ".log");
        try {
            Map<String, String> env = Map.of("SIDECAR_WAIT_TERMINATION_LOG", message.toString());
            CliRun run = CliRun.run(env, args.split(" "));
            assertEquals(2, run.exit(), run.err());
            assertEquals(1, run.errLines(), run.err());
            assertTrue(run.err().contains(names) && run.err().contains("***@"), run.err());
            String written = java.nio.file.Files.readString(message);
            for (String output : List.of(run.err(), run.out(), written)) {
                assertTrue(!output.contains("s3cret"), "the secret is printed: " + output);
            }
        } finally {
            java.nio.file.Files.deleteIfExists(message);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"SIDECAR_WAIT_URL", "SIDECAR_WAIT_QUIT_URL", "SIDECAR_WAIT_ADMIN_URL"})
    void userInformationInAUrlVariableIsRefusedAndNeverPrinted(String name) {
        Map<String, String> env = Map.of(name, (name.equals("SIDECAR_WAIT_URL") ? "tcp" : "http") + "://admin:s3cret@localhost:15020"
                + (name.equals("SIDECAR_WAIT_URL") ? "" : "/x"));
        String[] args = name.equals("SIDECAR_WAIT_QUIT_URL") ? new String[] {"wait", "--", "true"} : new String[] {"wait"};
        CliRun run = CliRun.run(env, args);
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains(name) && run.err().contains("URL here sends no user or password"), run.err());
        assertTrue(!run.err().contains("s3cret"), run.err());
    }

    /** A ',' in a password does not cut SIDECAR_WAIT_URL's list there, nor does a refusal print the password's first part. */
    @Test
    void aCommaInAPasswordInTheUrlVariableStaysInThePassword() {
        CliRun run = CliRun.run(Map.of("SIDECAR_WAIT_URL", "http://app:s3c,ret@localhost:0/,tcp://localhost:1"), "wait");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("'http://***@localhost:0/': port '0' is not a number from 1 to 65535"), run.err());
        assertTrue(!run.err().contains("s3c") && !run.err().contains("ret@"), run.err());
    }

    /** Every word-valued setting refuses in one wording, lower case as typed, whether a flag or its variable. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "wait | --mesh | SIDECAR_WAIT_MESH | 'consul' is not istio, linkerd, envoy, ambient or auto",
            "wait | --on-timeout | SIDECAR_WAIT_ON_TIMEOUT | 'consul' is not fail or continue",
            "wait | --log-format | SIDECAR_WAIT_LOG_FORMAT | 'consul' is not text or json",
            "drain | --source | SIDECAR_WAIT_DRAIN_SOURCE | 'consul' is not proc, envoy or both",
            "check | --output | | 'consul' is not text or json"})
    void wordValuedSettingsRefuseInOneWording(String command, String flag, String variable, String reason) {
        CliRun byFlag = CliRun.run(Map.of(), command, flag, "consul");
        assertEquals(2, byFlag.exit(), byFlag.err());
        assertEquals("sidecar-wait " + command + ": invalid value for " + flag + ": " + reason + " (see 'sidecar-wait "
                + command + " --help')\n", byFlag.err());
        if (variable != null) {
            CliRun byVariable = CliRun.run(Map.of(variable, "consul"), command);
            assertEquals(2, byVariable.exit(), byVariable.err());
            assertEquals("sidecar-wait " + command + ": invalid value for " + variable + ": " + reason + "\n", byVariable.err());
        }
    }

    /** Each says what the setting accepts, and nothing it does not (a tcp:// admin URL is refused, so none is suggested). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "wait --url tcp://127.0.0.1:1 --timeoutSeconds 99999999999 | --timeoutSeconds: '99999999999' is too large: the largest accepted is 2147483647 (see",
            "wait --url tcp://127.0.0.1:1 --timeoutSeconds 99999999 | --timeoutSeconds: '99999999' is too large: the largest accepted is 31536000 (a year)",
            "wait --url tcp://127.0.0.1:1 --periodMillis 1e3 | --periodMillis: '1e3' is not a whole number (see",
            "wait --url tcp://127.0.0.1:1 --requestTimeoutMillis 3000000000 | --requestTimeoutMillis: '3000000000' is too large: the largest accepted is 2147483647 (see",
            "wait --admin-url foo | --admin-url: 'foo': no scheme; use http://host:port/path",
            "wait --admin-url tls://localhost:15000 | --admin-url: 'tls://localhost:15000' is not an http:// or https:// URL",
            "check --admin-url localhost:15000 | --admin-url: 'localhost:15000': no scheme; use http://host:port/path",
            "wait --quit-url foo -- true | --quit-url: 'foo': no scheme; use http://host:port/path (see",
            "quit --url foo | --url: 'foo': no scheme; use http://host:port/path (see",
            "wait --url foo | --url: 'foo': no scheme; use http://host:port/path or tcp://host:port (see",
            "drain --port 99999999999 | --port: '99999999999' is not a port from 1 to 65535 (see",
            "drain --exclude-port 0 | --exclude-port: '0' is not a port from 1 to 65535 (see"})
    void messagesSayWhatTheSettingAccepts(String args, String reason) {
        CliRun run = CliRun.run(Map.of(), args.split(" "));
        assertEquals(2, run.exit(), run.err());
        assertEquals(1, run.errLines(), run.err());
        assertTrue(run.err().contains("invalid value for " + reason), run.err());
        if (run.err().contains("--admin-url") || run.err().contains("quit")) {
            assertTrue(!run.err().contains("tcp://"), "suggests only http://: " + run.err());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"SIDECAR_WAIT_ADMIN_URL", "SIDECAR_WAIT_QUIT_URL"})
    void httpOnlyVariablesSuggestOnlyHttp(String name) {
        String[] args = name.equals("SIDECAR_WAIT_QUIT_URL") ? new String[] {"wait", "--", "true"} : new String[] {"wait"};
        CliRun run = CliRun.run(Map.of(name, "localhost:15020"), args);
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("invalid value for " + name + ": 'localhost:15020': no scheme; use http://host:port/path\n"),
                run.err());
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
