package com.oracle.svm.hosted;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A list of names in the order the build should place what they name (native/code-order.txt, native/heap-order.txt),
 * for the stand-ins of the builder's code layouter and heap partition: each name and its place, the first place of a
 * name listed twice; # starts a comment line. Put on the builder's module with them by scripts/native.sh.
 */
public final class OrderFile {

    private OrderFile() {
    }

    /** Empty without a file (its system property unset): the builder's own order. */
    public static Map<String, Integer> ranks(String file) {
        Map<String, Integer> rank = new HashMap<>();
        if (file == null) {
            return rank;
        }
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rank.putIfAbsent(line.strip(), rank.size());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rank;
    }
}
