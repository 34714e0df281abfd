package dev.sidecarwait.output;

import dev.sidecarwait.wire.PeerText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * The container's termination-message file (Kubernetes' terminationMessagePath, /dev/termination-log by
 * default): what `kubectl describe pod` shows as the container's last state once it has ended. A failed
 * postStart hook's own output is shown nowhere else.
 */
public final class TerminationLog {

    public static final Path KUBERNETES_DEFAULT = Path.of("/dev/termination-log");
    /** The kubelet reads at most this much of the file. */
    public static final int MAX_BYTES = 4096;

    private final Path path;
    private final boolean onlyIfPresent;

    /** {@code onlyIfPresent}: write only into a file that already exists and is writable (the default path). */
    public TerminationLog(Path path, boolean onlyIfPresent) {
        this.path = path;
        this.onlyIfPresent = onlyIfPresent;
    }

    public static TerminationLog off() {
        return new TerminationLog(null, true);
    }

    /**
     * Writes {@code summary}, one line: any control character in it (a peer's text) is written as an escape, never as a
     * line of its own; {@code warn} hears, in words, why it could not be written.
     */
    public void write(String summary, Consumer<String> warn) {
        if (path == null || onlyIfPresent && !(Files.isRegularFile(path) && Files.isWritable(path))) {
            return;
        }
        try {
            Files.write(path, capped(PeerText.printable(summary)), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            warn.accept("Cannot write the termination message to " + path + ": " + why(e));
        }
    }

    /** An I/O failure in words, not the exception's class name. */
    static String why(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason().toLowerCase(java.util.Locale.ROOT);
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** At most {@link #MAX_BYTES} bytes of UTF-8, cut between characters and marked when cut. */
    static byte[] capped(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return bytes;
        }
        byte[] mark = " [cut]".getBytes(StandardCharsets.UTF_8);
        int end = MAX_BYTES - mark.length;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) { // never split a multi-byte character
            end--;
        }
        byte[] cut = new byte[end + mark.length];
        System.arraycopy(bytes, 0, cut, 0, end);
        System.arraycopy(mark, 0, cut, end, mark.length);
        return cut;
    }
}
