package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A command's arguments byte for byte as the runtime passed them. The Strings in main's args have been through
 * the platform charset, which under a POSIX locale (a container without LANG) turns every byte above 127 into
 * '?'; /proc/self/cmdline still holds the bytes, and the command is its last entries.
 */
public final class RawArguments {

    private RawArguments() {
    }

    /** The last entries of {@code cmdline} when they are {@code command}; else {@code command} in UTF-8. */
    public static List<byte[]> of(List<String> command, Path cmdline) {
        try {
            List<byte[]> entries = split(Files.readAllBytes(cmdline));
            if (entries.size() >= command.size()) {
                List<byte[]> tail = entries.subList(entries.size() - command.size(), entries.size());
                boolean same = true;
                for (int i = 0; i < command.size(); i++) {
                    same &= decodesTo(tail.get(i), command.get(i));
                }
                if (same) {
                    return List.copyOf(tail);
                }
            }
        } catch (IOException unreadable) {
            // fall back to the Strings
        }
        List<byte[]> encoded = new ArrayList<>();
        command.forEach(argument -> encoded.add(argument.getBytes(StandardCharsets.UTF_8)));
        return encoded;
    }

    /** NUL-terminated entries. */
    static List<byte[]> split(byte[] all) {
        List<byte[]> entries = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == 0) {
                entries.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        if (start < all.length) {
            entries.add(Arrays.copyOfRange(all, start, all.length));
        }
        return entries;
    }

    /**
     * Whether the runtime could have made {@code argument} from {@code raw}: in UTF-8, in the platform charset, or
     * as the JDK's ASCII fast path does (each byte above 127 becomes '?').
     */
    static boolean decodesTo(byte[] raw, String argument) {
        if (new String(raw, StandardCharsets.UTF_8).equals(argument) || new String(raw, platform()).equals(argument)) {
            return true;
        }
        if (raw.length != argument.length()) {
            return false;
        }
        for (int i = 0; i < raw.length; i++) {
            char expected = raw[i] < 0 ? '?' : (char) raw[i];
            if (argument.charAt(i) != expected) {
                return false;
            }
        }
        return true;
    }

    private static Charset platform() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (IllegalArgumentException unknown) {
            return StandardCharsets.UTF_8;
        }
    }
}
