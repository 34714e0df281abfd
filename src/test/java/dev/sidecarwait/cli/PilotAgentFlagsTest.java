package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * pilot-agent's root flags on wait, as a hook written for pilot-agent passes them: the list is istio/istio's
 * pkg/log/options.go (AttachFlags) and pkg/log/klog.go (--vklog), each given in both of pflag's spellings.
 */
class PilotAgentFlagsTest {

    private ServerSocket ready;

    @BeforeEach
    void listen() throws IOException {
        ready = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    }

    @AfterEach
    void close() throws IOException {
        ready.close();
    }

    private CliRun waitWith(String... flags) {
        List<String> args = new ArrayList<>(List.of("wait", "--url", "tcp://127.0.0.1:" + ready.getLocalPort(),
                "--termination-log", "none"));
        args.addAll(List.of(flags));
        return CliRun.run(Map.of(), args.toArray(String[]::new));
    }

    @Test
    void everyRootFlagIsTakenInBothSpellingsAndOneDebugLineNamesThoseWithoutEffect() {
        String[][] spellings = {
            {"--log_target=stdout", "--log_target=/var/log/a.log", "--log_stacktrace_level=default:none",
                "--log_caller=default", "--vklog=9", "--log_as_json=false", "--log_output_level=default:debug"},
            {"--log_target", "stdout", "--log_target", "/var/log/a.log", "--log_stacktrace_level", "default:none", "--log_caller", "default", "--vklog", "9", "--log_as_json", "false",
                "--log_output_level", "default:debug"}};
        for (String[] flags : spellings) {
            CliRun run = waitWith(flags);
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.err().contains("\tdebug\tpilot-agent's --log_target, --log_stacktrace_level, --log_caller, --vklog: "
                    + "accepted, no effect here"), run.err());
            assertTrue(run.err().contains(" is ready!"), run.err());
        }
    }

    /** pflag reads a detached value only for flags that take one; for --log_as_json the words true and false. */
    @Test
    void logAsJsonGivesJsonLinesAsGoReadsABoolean() {
        for (String[] flags : new String[][] {{"--log_as_json"}, {"--log_as_json=true"}, {"--log_as_json", "true"},
                {"--log_as_json=T"}, {"--log_as_json=1"}}) {
            CliRun run = waitWith(flags);
            assertEquals(0, run.exit(), run.err());
            run.err().lines().forEach(line -> assertTrue(line.startsWith("{\"time\":"), line));
        }
        CliRun text = waitWith("--log_as_json", "false");
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.err().contains("\tinfo\t"), text.err());
    }

    @Test
    void theDefaultScopesOutputLevelSetsTheLogsLevel() {
        CliRun warn = waitWith("--log_output_level", "warn");
        assertEquals(0, warn.exit(), warn.err());
        assertEquals("", warn.err(), "a ready wait says nothing at warn");
        CliRun debug = waitWith("--log_output_level=ads:error,default:debug,klog:none", "--vklog=1");
        assertTrue(debug.err().contains("\tdebug\t"), debug.err());
        CliRun none = waitWith("--log_output_level", "none");
        assertEquals("", none.err());
        CliRun otherScopes = waitWith("--log_output_level", "ads:debug,cache:info", "--vklog=1");
        assertEquals(0, otherScopes.exit(), otherScopes.err());
        assertTrue(otherScopes.err().contains(" is ready!"), "the default scope keeps info: " + otherScopes.err());
        assertFalse(otherScopes.err().contains("\tdebug\t"), otherScopes.err());
    }

    @Test
    void badValuesAndUnknownFlagsAreUsageErrorsNamingTheFlag() {
        Map<String[], String> cases = Map.of(
                new String[] {"--log_output_level", "loud"}, "--log_output_level: 'loud' is not debug, info, warn, error, fatal or none",
                new String[] {"--log_output_level=a:b:c"}, "--log_output_level: 'a:b:c' is not SCOPE:LEVEL",
                new String[] {"--log_rotate_max_age", "7"}, "unknown option: '--log_rotate_max_age'",
                new String[] {"--log_rotate=/var/log/agent.log"}, "unknown option: '--log_rotate=/var/log/agent.log'",
                new String[] {"--vklog=high"}, "--vklog: 'high' is not a whole number",
                new String[] {"--log_as_json=maybe"}, "--log_as_json: 'maybe' is not true or false",
                new String[] {"--log_as_yaml"}, "unknown option: '--log_as_yaml'",
                new String[] {"--log_as_json", "--log-format", "text"}, "--log_as_json=true and --log-format text disagree",
                new String[] {"--log_output_level", "debug", "--quiet"}, "--log_output_level and --quiet cannot be used together");
        cases.forEach((flags, message) -> {
            CliRun run = waitWith(flags);
            assertEquals(2, run.exit(), String.join(" ", flags) + ": " + run.err());
            assertTrue(run.err().contains(message), run.err());
            assertEquals(1, run.errLines(), run.err());
        });
    }
}
