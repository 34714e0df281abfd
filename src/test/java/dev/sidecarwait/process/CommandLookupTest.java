package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 127 or 126 decided from the file system, as execvp finds commands, never from the runtime's wording. */
class CommandLookupTest {

    @TempDir
    Path dir;

    /** How the JDK and GraalVM's native image word the same failure (the native one was seen in issue 10). */
    private static final List<IOException> BOTH_SPELLINGS = List.of(
            new IOException("Cannot run program \"x\": error=2, No such file or directory"),
            new IOException("Cannot run program \"x\": Exec failed, error: 2 (No such file or directory)"),
            new IOException("Cannot run program \"x\": error=13, Permission denied"),
            new IOException("Cannot run program \"x\": Exec failed, error: 13 (Permission denied)"));

    private int code(String program, String path) {
        int first = CommandLookup.whyNotStarted(program, path, BOTH_SPELLINGS.get(0)).exitCode();
        for (IOException spelling : BOTH_SPELLINGS) {
            assertEquals(first, CommandLookup.whyNotStarted(program, path, spelling).exitCode(), spelling.getMessage());
        }
        return first;
    }

    @Test
    void notFoundIs127WhateverTheRuntimeSaid() {
        assertEquals(127, code("no-such-command-for-sidecar-wait", dir.toString()));
        assertEquals(127, code(dir.resolve("missing").toString(), dir.toString()));
        assertEquals(127, code("", dir.toString()));
    }

    @Test
    void foundButNotExecutableOrADirectoryIs126() throws IOException {
        Path script = Files.writeString(dir.resolve("job.sh"), "echo hi\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createDirectory(dir.resolve("tool"));
        assertEquals(126, code(script.toString(), "/nonexistent"));
        assertEquals(126, code("job.sh", "/nonexistent:" + dir), "found in a later PATH entry, not executable");
        assertEquals(126, code(dir.resolve("tool").toString(), "/nonexistent"));
        assertEquals(127, code("tool", dir.toString()), "execvp skips directories on PATH");
        assertEquals("permission denied (not an executable file)",
                CommandLookup.whyNotStarted(script.toString(), "", BOTH_SPELLINGS.get(1)).reason());
    }

    @Test
    void anExecutableThatStillFailedIs126WithTheRuntimesWordsInTheMessageOnly() throws IOException {
        // An ELF header with nothing valid behind it: the lookup takes it for a program, the start fails.
        Path binary = Files.writeString(dir.resolve("broken"), "\u007fELF and nothing a kernel could load");
        Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
        CommandLookup.Failure failure = CommandLookup.whyNotStarted("broken", dir.toString(),
                new IOException("Exec format error"));
        assertEquals(126, failure.exitCode());
        assertTrue(failure.reason().startsWith("cannot execute (found as " + binary + "): Exec format error"), failure.reason());
    }

    @Test
    void aFileThatIsNeitherElfNorAScriptIsNotAProgram() throws IOException {
        Path text = Files.writeString(dir.resolve("text"), "echo no shebang\n");
        Files.setPosixFilePermissions(text, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: exec format error"), CommandLookup.find(text.toString(), ""));
        assertEquals(new CommandLookup.Failure(126, "cannot execute: exec format error"), CommandLookup.find("text", dir.toString()));
        Files.writeString(text, "#!/bin/sh\necho\n");
        assertTrue(CommandLookup.find("text", dir.toString()) instanceof CommandLookup.Found);
        assertTrue(CommandLookup.find("/bin/sh", "") instanceof CommandLookup.Found, "an ELF binary");
    }
}
