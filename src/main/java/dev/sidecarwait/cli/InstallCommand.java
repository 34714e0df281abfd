package dev.sidecarwait.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "install", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = {"Copy this native binary into a directory that the pod's other containers share.",
                "Writes DIR/sidecar-wait (mode 0755), for an init container that hands it to the other containers through "
                        + "an emptyDir volume. Only the native binary can install itself."},
        footer = {"",
                "Exit codes: 0 installed, 1 could not (no such directory, not writable, not the native binary), 2 bad usage.",
                "",
                "Example (the init container of examples/kubernetes/install-init-container.yaml):",
                "  /sidecar-wait install /shared"})
final class InstallCommand implements Subcommand {

    // A String, not a Path: picocli converts Path reflectively, which the native image would need configured.
    @Parameters(paramLabel = "DIR", description = "Where to put sidecar-wait; usually an emptyDir volume's mount point.")
    String directoryName;

    @Override
    public int run(Context context) {
        Path self = context.process().executable(); // the running native binary; null on the JVM
        Path directory = Path.of(directoryName);
        if (self == null) {
            context.err().println("sidecar-wait install: this is the JVM build; only the native binary can copy itself "
                    + "(build it with mvn -Pnative package, or copy target/sidecar-wait.jar with a JVM)");
            return 1;
        }
        if (!Files.isDirectory(directory)) {
            context.err().println("sidecar-wait install: " + directory + " is not a directory (mount the shared volume there)");
            return 1;
        }
        Path target = directory.resolve("sidecar-wait");
        Path partial = directory.resolve(".sidecar-wait.partial");
        try {
            // Copied under another name, then renamed: a container starting at the same moment never runs half a file.
            copy(self, partial);
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
            // rename(2), through java.io.File: NIO's move keeps its fallbacks (a copy, a directory's) reachable
            if (!partial.toFile().renameTo(target.toFile())) {
                Files.deleteIfExists(partial);
                context.err().println("sidecar-wait install: cannot install into " + directory + ": could not rename "
                        + partial.getFileName() + " to " + target.getFileName()
                        + (Files.isDirectory(target) ? " (a directory of that name is in the way)" : ""));
                return 1;
            }
        } catch (NoSuchFileException | AccessDeniedException e) {
            context.err().println("sidecar-wait install: cannot write " + target + ": " + describe(e));
            return 1;
        } catch (IOException e) {
            context.err().println("sidecar-wait install: cannot install into " + directory + ": " + describe(e));
            return 1;
        }
        context.err().println("sidecar-wait install: installed " + target);
        return 0;
    }

    /**
     * A plain read-and-write loop, not Files.copy: that one (and Files.move) keeps the JDK's copy between the file
     * systems of two providers and its channel transfers reachable, 143 methods of the native binary (measured on
     * 6eac6aa) for a copy of one file. Whatever is at {@code to} (a file left by an earlier try, a link another container put there) is
     * removed, never written through: the file is created new.
     */
    private static void copy(Path from, Path to) throws IOException {
        Files.deleteIfExists(to);
        try (InputStream in = Files.newInputStream(from);
             OutputStream out = Files.newOutputStream(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            byte[] buffer = new byte[64 * 1024];
            for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
            }
        }
    }

    private static String describe(IOException e) {
        return e instanceof AccessDeniedException ? "permission denied" : String.valueOf(e.getMessage());
    }
}
