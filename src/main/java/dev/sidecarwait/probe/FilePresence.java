package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * file://: ready once the path is a file this user can read, as the application will need it (a secret the Vault
 * agent renders, a marker another container writes on a shared volume). Symbolic links are followed, as the
 * application's open would follow them (a Secret volume's files are links into its ..data directory).
 */
final class FilePresence {

    private FilePresence() {
    }

    /** What is there when it is ready ("a file of 312 bytes"); else a failure saying what was found. */
    static String look(Path path) throws ProbeFailure {
        BasicFileAttributes found;
        try {
            found = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            Path directory = path.getParent();
            throw new ProbeFailure(directory != null && !Files.isDirectory(directory)
                    ? "missing (no directory " + directory + ")" : "missing");
        } catch (AccessDeniedException e) {
            throw new ProbeFailure("cannot be looked at: " + whoAmI() + " may not search a directory on the way");
        } catch (IOException e) {
            throw new ProbeFailure(ProbeFailure.describe(e));
        }
        if (found.isDirectory()) {
            throw new ProbeFailure("a directory, not a file");
        }
        if (!Files.isReadable(path)) {
            throw new ProbeFailure(describe(found) + ", not readable by " + whoAmI());
        }
        return describe(found);
    }

    static String describe(BasicFileAttributes found) {
        return found.isDirectory() ? "a directory" : found.isRegularFile() ? "a file of " + found.size() + " bytes"
                : "a special file";
    }

    /**
     * "uid 1000": the effective user, the second of the Uid line of /proc/self/status. Not Files.getAttribute(...,
     * "unix:uid"): the dynamic attribute views it reaches cost the native binary 74 methods (docs/native.md, the diet).
     */
    static String whoAmI() {
        try {
            for (String line : Files.readString(Path.of("/proc/self/status"), StandardCharsets.ISO_8859_1).split("\n")) {
                if (line.startsWith("Uid:")) {
                    return "uid " + line.substring(4).trim().split("\\s+")[1];
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux's /proc: say it without the number
        }
        return "this user";
    }
}
