package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.Clock;
import dev.sidecarwait.process.ThisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `install` copies "the running binary". On the JVM there is none, so the tests hand the command a real file
 * to stand for it; the copying is the real code path.
 */
class InstallCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String err) {
    }

    private Run install(Path self, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Context context = new Context(Map.of(), Clock.SYSTEM, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ThisProcess(self, null));
        String[] all = new String[args.length + 1];
        all[0] = "install";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = Cli.run(context, all);
        return new Run(exit, err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void copiesTheBinaryExecutableAndReplacesAnOldOne() throws Exception {
        Path binary = Files.write(dir.resolve("binary"), new byte[] {0x7f, 'E', 'L', 'F', 1, 2, 3});
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.writeString(shared.resolve("sidecar-wait"), "an older version");
        Run run = install(binary, shared.toString());
        assertEquals(0, run.exit(), run.err());
        Path installed = shared.resolve("sidecar-wait");
        assertArrayEquals(Files.readAllBytes(binary), Files.readAllBytes(installed));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(installed)));
        assertFalse(Files.exists(shared.resolve(".sidecar-wait.partial")));
        assertTrue(run.err().contains("installed " + installed), run.err());
    }

    @Test
    void aLargeBinaryIsCopiedWholeAndALinkAtThePartialNameIsNotWrittenThrough() throws Exception {
        byte[] bytes = new byte[300_007]; // several reads of the copy's buffer, the last one short
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        Path binary = Files.write(dir.resolve("binary"), bytes);
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "not ours to write");
        Files.createSymbolicLink(shared.resolve(".sidecar-wait.partial"), elsewhere);
        Run run = install(binary, shared.toString());
        assertEquals(0, run.exit(), run.err());
        assertArrayEquals(bytes, Files.readAllBytes(shared.resolve("sidecar-wait")));
        assertEquals("not ours to write", Files.readString(elsewhere));
        assertFalse(Files.isSymbolicLink(shared.resolve("sidecar-wait")));
    }

    @Test
    void aDirectoryInTheWayOfTheBinaryIsReportedAndNothingIsLeftBehind() throws Exception {
        Path binary = Files.write(dir.resolve("binary"), new byte[] {0x7f, 'E', 'L', 'F'});
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.createDirectory(shared.resolve("sidecar-wait"));
        Run run = install(binary, shared.toString());
        assertEquals(1, run.exit(), run.err());
        assertEquals("sidecar-wait install: cannot install into " + shared + ": could not rename .sidecar-wait.partial to "
                + "sidecar-wait (a directory of that name is in the way)\n", run.err());
        assertTrue(Files.isDirectory(shared.resolve("sidecar-wait")));
        assertFalse(Files.exists(shared.resolve(".sidecar-wait.partial")));
    }

    @Test
    void aMissingDirectoryIsReported() throws Exception {
        Path binary = Files.write(dir.resolve("binary"), new byte[] {1});
        Run run = install(binary, dir.resolve("not-mounted").toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("not-mounted is not a directory"), run.err());
    }

    @Test
    void theJvmBuildSaysItCannotInstallItself() {
        Run run = install(null, dir.toString());
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("this is the JVM build; only the native binary can copy itself"), run.err());
        assertFalse(Files.exists(dir.resolve("sidecar-wait")));
    }

    @Test
    void noDirectoryIsAUsageError() {
        Run run = install(null);
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("missing required parameter: 'DIR'"), run.err());
    }
}
