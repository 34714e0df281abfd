package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --stop-signal's spellings against bash's kill -l, which names signals as Linux and Kubernetes do. */
class StopSignalTest {

    /** kill -l's table, one "NUMBER NAME" a signal, the names without SIG. */
    private static List<String[]> killTable() throws Exception {
        Process bash = new ProcessBuilder("bash", "-c", "for n in $(seq 1 64); do echo $n $(kill -l $n); done")
                .redirectErrorStream(true).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, bash.waitFor(), out);
        List<String[]> table = new ArrayList<>();
        out.lines().map(line -> line.split(" ")).filter(row -> row.length == 2).forEach(table::add);
        return table;
    }

    @Test
    void everyCatchableSignalByNameWithAndWithoutSigInAnyCaseAndByNumber() throws Exception {
        List<String[]> table = killTable();
        assertEquals(62, table.size(), "1 to 31 and 34 to 64 have names; 32 and 33 are the C library's");
        for (String[] row : table) {
            int number = Integer.parseInt(row[0]);
            String name = row[1];
            if (name.equals("KILL") || name.equals("STOP")) {
                continue;
            }
            StopSignal expected = new StopSignal(name, number);
            assertEquals(expected, StopSignal.parse(name));
            assertEquals(expected, StopSignal.parse("SIG" + name));
            assertEquals(expected, StopSignal.parse(" sig" + name.toLowerCase(java.util.Locale.ROOT) + " "));
            assertEquals(expected, StopSignal.parse(row[0]));
        }
        assertEquals(new StopSignal("ABRT", 6), StopSignal.parse("SIGIOT"));
        assertEquals(new StopSignal("CHLD", 17), StopSignal.parse("CLD"));
        assertEquals(new StopSignal("IO", 29), StopSignal.parse("POLL"));
        assertEquals("SIGRTMIN+3", StopSignal.parse("37").toString());
    }

    @Test
    void killAndStopCannotBeCaughtAndAnythingElseIsNoSignal() {
        for (String uncatchable : List.of("KILL", "SIGSTOP", "9", "19")) {
            String message = assertThrows(IllegalArgumentException.class, () -> StopSignal.parse(uncatchable)).getMessage();
            assertTrue(message.contains("cannot be caught"), message);
        }
        for (String none : List.of("0", "32", "33", "65", "999", "-1", "TERMINATE", "RTMIN+16", "SIG", "", "1.5")) {
            String message = assertThrows(IllegalArgumentException.class, () -> StopSignal.parse(none)).getMessage();
            assertTrue(message.startsWith("'" + none + "' is not a signal"), message);
        }
    }
}
