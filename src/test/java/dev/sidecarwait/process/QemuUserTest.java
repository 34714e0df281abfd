package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three things the process-level tests leave out under emulation, shown to be qemu-user's own and not sidecar-wait's:
 * the same few lines of C (src/test/c/qemu/), built statically for this machine and for aarch64, behave as Linux does
 * natively and otherwise under qemu-user (binfmt_misc, scripts/emulation.sh). Run only there, on the arm64 binary's
 * pass (tag emulation-only). Each test asserts qemu's defect: when a qemu-user fixes one, its test fails here, and the
 * tag it justifies (SidecarWaitProcess.QEMU_*) comes off the tests it keeps from running under emulation.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
@Tag(SidecarWaitProcess.EMULATION_ONLY_TAG)
class QemuUserTest {

    private static final Path SOURCES = Path.of("src/test/c/qemu");

    @TempDir
    static Path dir;

    @BeforeAll
    static void underEmulation() {
        assertTrue(SidecarWaitProcess.EMULATED, "these tests are about qemu-user: run them on the arm64 binary "
                + "(scripts/test.sh), not on " + SidecarWaitProcess.PLATFORM);
    }

    /** {@code source} built statically with {@code compiler} (musl's, for this machine or for aarch64). */
    private static Path build(String compiler, String source) throws Exception {
        Path binary = dir.resolve(source.replace(".c", "") + "-" + compiler);
        Process cc = new ProcessBuilder(compiler, "-static", "-O2", "-Wall", "-Werror", "-o", binary.toString(),
                SOURCES.resolve(source).toString()).redirectErrorStream(true).start();
        String said = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(SidecarWaitProcess.exited(cc, 60) && cc.exitValue() == 0, compiler + " " + source + ": " + said);
        return binary;
    }

    /** The number the program caught, when this machine sends it real-time signal 40 (RTMIN+6). */
    private static int caughtOf40(Path program) throws Exception {
        Process process = new ProcessBuilder(program.toString()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String ready = out.readLine();
            assertTrue(ready != null && ready.startsWith("ready "), "the program did not start: " + ready);
            Process kill = new ProcessBuilder("kill", "-40", Long.toString(process.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            String got = out.readLine();
            assertTrue(SidecarWaitProcess.exited(process, 30), "the program ends once it has caught one");
            assertTrue(got != null && got.startsWith("got "), "the program caught nothing: " + got);
            return Integer.parseInt(got.substring(4));
        } finally {
            SidecarWaitProcess.endTree(process);
        }
    }

    @Test
    void qemuUserRenumbersARealTimeSignalBetweenTheHostAndTheGuest() throws Exception {
        assertEquals(40, caughtOf40(build("musl-gcc", "catch_real_time.c")), "natively, signal 40 arrives as 40");
        int underQemu = caughtOf40(build("aarch64-linux-musl-gcc", "catch_real_time.c"));
        assertNotEquals(40, underQemu, "qemu-user delivered signal 40 as 40: it no longer renumbers real-time signals, "
                + "so the tag " + SidecarWaitProcess.QEMU_RENUMBERS_REAL_TIME_SIGNALS + " can come off");
    }

    /** SigIgn of a program the given one executes, started with SIGUSR1 ignored (coreutils' env --ignore-signal). */
    private static String ignoredAfterExec(Path execAsGiven) throws Exception {
        Path status = Files.createTempFile(dir, "status", ".txt");
        Process process = new ProcessBuilder(List.of("env", "--ignore-signal=USR1", execAsGiven.toString(), "/bin/grep",
                "^SigIgn:", "/proc/self/status")).redirectOutput(status.toFile()).start();
        assertTrue(SidecarWaitProcess.exited(process, 30) && process.exitValue() == 0, Files.readString(status));
        return Files.readString(status).replaceAll("SigIgn:\\s*", "").trim();
    }

    @Test
    void qemuUserNoLongerIgnoresAtTheGuestsExecWhatItsParentIgnored() throws Exception {
        long usr1 = 1L << (10 - 1);
        long natively = Long.parseUnsignedLong(ignoredAfterExec(build("musl-gcc", "exec_as_given.c")), 16);
        assertEquals(usr1, natively & usr1, "natively, an ignored signal stays ignored across exec");
        long underQemu = Long.parseUnsignedLong(ignoredAfterExec(build("aarch64-linux-musl-gcc", "exec_as_given.c")), 16);
        assertEquals(0, underQemu & usr1, "qemu-user kept SIGUSR1 ignored across the guest's exec: it no longer resets "
                + "ignored signals, so the tag " + SidecarWaitProcess.QEMU_RESETS_IGNORED_SIGNALS + " can come off");
    }

    /** How many kB of resident memory the program's madvise(MADV_PAGEOUT) over its own 4 MiB file gave back. */
    private static long givenBack(Path program) throws Exception {
        Process process = new ProcessBuilder(program.toString()).start();
        String said = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(SidecarWaitProcess.exited(process, 30) && process.exitValue() == 0, said);
        String[] words = said.split(" ");
        assertTrue(words.length >= 6 && words[0].equals("before") && words[5].equals("0"), "madvise answered: " + said);
        return Long.parseLong(words[1]) - Long.parseLong(words[3]);
    }

    @Test
    void qemuUserTakesMadvisePageOutAndIgnoresIt() throws Exception {
        assertTrue(givenBack(build("musl-gcc", "page_out.c")) > 2048, "natively, MADV_PAGEOUT gives the pages back");
        long underQemu = givenBack(build("aarch64-linux-musl-gcc", "page_out.c"));
        assertTrue(underQemu < 512, "qemu-user gave back " + underQemu + " kB for MADV_PAGEOUT: it no longer ignores "
                + "it, so the tag " + SidecarWaitProcess.QEMU_IGNORES_PAGEOUT + " can come off");
    }
}
