package dev.sidecarwait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Small enough to read: no file of the shipped code over 250 lines, no method or constructor over 60 (docs/development.md).
 * A method is found as the code is laid out here: a declaration line that opens a block, closed by a brace at the
 * same indentation.
 */
class SourceSizeTest {

    private static final int MAX_FILE_LINES = 250;
    private static final int MAX_METHOD_LINES = 60;
    private static final Pattern DECLARATION = Pattern.compile(
            "^( +)(?!(?:if|for|while|switch|try|catch|else|do|synchronized|return|new|case)\\b)[\\w<>\\[\\], .@?]*\\b(\\w+)\\("
                    + "[^;]*\\)\\s*(?:throws [\\w., ]+)?\\{$");

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            return files.filter(path -> path.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void noFileIsOver250Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path file : sources()) {
            int lines = Files.readAllLines(file).size();
            if (lines > MAX_FILE_LINES) {
                long_.add(file + ": " + lines);
            }
        }
        assertEquals(List.of(), long_, "files over " + MAX_FILE_LINES + " lines");
    }

    @Test
    void noMethodIsOver60Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        int methods = 0;
        for (Path file : sources()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher declaration = DECLARATION.matcher(lines.get(i));
                if (!declaration.matches()) {
                    continue;
                }
                String close = declaration.group(1) + "}";
                for (int j = i + 1; j < lines.size(); j++) {
                    if (lines.get(j).equals(close) || lines.get(j).startsWith(close + ";")) {
                        methods++;
                        if (j - i + 1 > MAX_METHOD_LINES) {
                            long_.add(file + ": " + declaration.group(2) + " (" + (j - i + 1) + " lines)");
                        }
                        break;
                    }
                }
            }
        }
        assertTrue(methods > 500, "the layout this test reads still finds the methods: " + methods);
        assertEquals(List.of(), long_, "methods over " + MAX_METHOD_LINES + " lines");
    }
}
