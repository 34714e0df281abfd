package com.oracle.svm.hosted;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stand-in for the builder's class of the same name, put on its module by --patch-module (scripts/native.sh). The
 * original loads a C helper library from GraalVM's distribution (lib/svm/builder/lib/libreporterchelper.so) to ask
 * the terminal's width and the builder's peak memory, and stops the build when it is missing, as it is on Maven
 * Central. Here: the default width, and the peak from /proc (VmHWM, what getrusage's ru_maxrss reports on Linux).
 */
public final class ProgressReporterCHelper {

    private static final int DEFAULT_CHARACTERS_PER_LINE = 80;
    static final int MAX_CHARACTERS_PER_LINE = 120;

    private ProgressReporterCHelper() {
    }

    public static int getTerminalWindowColumnsClamped() {
        return Math.min(Math.max(DEFAULT_CHARACTERS_PER_LINE, getTerminalWindowColumns()), MAX_CHARACTERS_PER_LINE);
    }

    public static int getTerminalWindowColumns() {
        return DEFAULT_CHARACTERS_PER_LINE;
    }

    /** Bytes; -1 when it cannot be read. */
    public static long getPeakRSS() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException unreadable) {
            return -1;
        }
        return -1;
    }
}
