package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the hand-over changes, decided in plain Java from what /proc says. */
class ExecPlanTest {

    @TempDir
    Path dir;

    private static final CommandLookup.Found SH = new CommandLookup.Found(Path.of("/bin/sh"), "/bin");
    private static final List<byte[]> ARGV = List.of("sh".getBytes(StandardCharsets.UTF_8));

    private static long bits(int... signals) {
        long mask = 0;
        for (int signal : signals) {
            mask |= 1L << (signal - 1);
        }
        return mask;
    }

    @Test
    void inheritedIgnoresComeBackOthersIgnoredSinceGoToTheDefaultAndTheMaskIsTheInheritedOne() {
        Inherited atStart = new Inherited(bits(1, 12, 33), bits(10, 40), Set.of(0, 1, 2), null);
        Inherited now = new Inherited(bits(13, 15, 33), bits(2, 3), Set.of(0, 1, 2), null);
        ExecPlan plan = ExecPlan.of(SH, ARGV, atStart, now);
        assertArrayEquals(new int[] {1, 12}, plan.ignored(), "ignored at start, whatever handles them now");
        assertArrayEquals(new int[] {13, 15}, plan.defaulted(), "ignored since, by someone else");
        assertArrayEquals(new int[] {10, 40}, plan.blocked(), "the inherited mask, not today's");
        assertEquals("signals ignored as inherited: 1, 12; back to the default: 13, 15; blocked: 10, 40; descriptors "
                + "closed: none", plan.describe());
    }

    /**
     * Stands for the native image runtime's descriptor on its own executable (MEASURED.md, 28c0c1e: the command held
     * `4 -> /path/to/sidecar-wait` after the hand-over): open when main starts, so not "opened since", yet not the
     * container runtime's to hand on. Every other descriptor open at start stays open.
     */
    @Test
    void theRuntimesOwnDescriptorOnItsExecutableIsClosedThoughItWasOpenAtStart() {
        Inherited atStart = new Inherited(0, 0, Set.of(0, 1, 2, 3, 4), Set.of(4), null);
        Inherited now = new Inherited(0, 0, Set.of(0, 1, 2, 3, 4, 9), null);
        assertArrayEquals(new int[] {4, 9}, ExecPlan.of(SH, ARGV, atStart, now).close());
        Inherited closedMeanwhile = new Inherited(0, 0, Set.of(0, 1, 2, 3), null);
        assertArrayEquals(new int[] {}, ExecPlan.of(SH, ARGV, atStart, closedMeanwhile).close());
    }

    @Test
    void theDescriptorsOnThisProcesssExecutableAreFoundByTheirLink() throws Exception {
        Path exe = Files.readSymbolicLink(Path.of("/proc/self/exe"));
        try (FileInputStream self = new FileInputStream(exe.toFile()); FileInputStream other = new FileInputStream("/dev/null")) {
            Set<Integer> open = Descriptors.open(Path.of("/proc/self/fd"));
            Set<Integer> onExe = Descriptors.onFile(Path.of("/proc/self/fd"), open, exe);
            assertEquals(1, onExe.size(), "this JVM has its executable open once, here: " + onExe);
            Inherited read = Inherited.read(Path.of("/proc/self"));
            assertEquals(onExe, read.ownExecutable());
            assertTrue(read.descriptors().containsAll(onExe));
        }
    }

    @Test
    void killStopAndLibcsOwnSignalsAreNeverTouched() {
        long everything = -1L;
        ExecPlan plan = ExecPlan.of(SH, ARGV, new Inherited(everything, everything, Set.of(), null),
                new Inherited(everything, everything, Set.of(), null));
        for (int[] list : List.of(plan.ignored(), plan.blocked())) {
            assertEquals(64 - 2 - 3, list.length);
            assertTrue(Arrays.stream(list).noneMatch(s -> s == 9 || s == 19 || s >= 32 && s <= 34), Arrays.toString(list));
        }
    }

    @Test
    void everyDescriptorOpenedSinceTheStartIsClosedReadFromTheRealProc() throws Exception {
        Inherited atStart = Inherited.read(Path.of("/proc/self"));
        assertNull(atStart.unknown());
        assertTrue(atStart.descriptors().containsAll(Set.of(0, 1, 2)), atStart.descriptors().toString());
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
             FileInputStream file = new FileInputStream("/dev/null")) {
            Inherited now = Inherited.read(Path.of("/proc/self"));
            ExecPlan plan = ExecPlan.of(SH, ARGV, atStart, now);
            assertTrue(plan.close().length >= 2, "the socket and the file: " + plan.describe());
            assertTrue(IntStream.of(plan.close()).noneMatch(atStart.descriptors()::contains), plan.describe());
        }
        assertEquals(Descriptors.open(Path.of("/proc/self/fd")), Descriptors.open(Path.of("/proc/self/fd")),
                "the listing's own descriptor is never among them");
    }

    @Test
    void inheritedMasksAreReadFromStatusAndAMissingProcIsUnknown() throws Exception {
        Path self = Files.createDirectories(dir.resolve("self"));
        Files.writeString(self.resolve("status"), "Name:\tx\nSigQ:\t0/1\nSigPnd:\t0000000000000000\nSigBlk:\t0000008000000200\n"
                + "SigIgn:\t0000000000000801\nSigCgt:\t0000000000004000\n");
        Files.createDirectory(self.resolve("fd"));
        Files.createSymbolicLink(self.resolve("fd/7"), Path.of("/dev/null"));
        Inherited read = Inherited.read(self);
        assertNull(read.unknown());
        assertTrue(read.ignores(1) && read.ignores(12) && !read.ignores(15));
        assertTrue(read.blocks(10) && read.blocks(40) && !read.blocks(1));
        assertEquals(Set.of(7), read.descriptors());

        Inherited missing = Inherited.read(dir.resolve("nowhere"));
        assertNotNull(missing.unknown());
        assertTrue(missing.unknown().startsWith("cannot read " + dir.resolve("nowhere")), missing.unknown());
    }

    @Test
    void theFileIsTheNameAsAPathOrThePathEntryItWasFoundIn() {
        byte[] name = "app".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals("/opt/bin/app".getBytes(StandardCharsets.UTF_8),
                ExecPlan.file(new CommandLookup.Found(Path.of("/opt/bin/app"), "/opt/bin"), name));
        assertArrayEquals("./app".getBytes(StandardCharsets.UTF_8),
                ExecPlan.file(new CommandLookup.Found(Path.of("./app"), "."), name));
        byte[] path = "/srv/app".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(path, ExecPlan.file(new CommandLookup.Found(Path.of("/srv/app"), null), path));
    }

    @Test
    void rawArgumentsAreTheLastEntriesOfTheCommandLineWhenTheyMatch() throws Exception {
        byte[] e = {(byte) 0xc3, (byte) 0xa9};
        Path cmdline = dir.resolve("cmdline");
        Files.write(cmdline, concat("java\0-cp\0x\0Main\0wait\0--\0printf\0".getBytes(StandardCharsets.US_ASCII), e, new byte[] {0}));
        List<byte[]> raw = RawArguments.of(List.of("printf", "??"), cmdline);
        assertArrayEquals("printf".getBytes(StandardCharsets.US_ASCII), raw.get(0));
        assertArrayEquals(e, raw.get(1), "the bytes the C locale turned into '??'");
        assertArrayEquals(e, RawArguments.of(List.of("printf", "\u00e9"), cmdline).get(1), "decoded as UTF-8");

        List<byte[]> mismatch = RawArguments.of(List.of("printf", "other"), cmdline);
        assertArrayEquals("other".getBytes(StandardCharsets.UTF_8), mismatch.get(1), "not what was passed: the Strings");
        assertArrayEquals("x".getBytes(StandardCharsets.UTF_8),
                RawArguments.of(List.of("x"), dir.resolve("missing")).get(0));
    }

    @Test
    void aFailedExecIsAFailedStartInTheShellsTerms() {
        assertEquals(new CommandLookup.Failure(127, "command not found"), CommandLookup.afterExec("app", 2));
        assertEquals(new CommandLookup.Failure(127, "no such file"), CommandLookup.afterExec("/srv/app", 2));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: exec format error"), CommandLookup.afterExec("app", 8));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: permission denied"), CommandLookup.afterExec("app", 13));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: text file busy"), CommandLookup.afterExec("app", 26));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: errno 99"), CommandLookup.afterExec("app", 99));
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
