package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Help text is written as whole paragraphs, one string each, so that picocli wraps it at the terminal's width: a
 * paragraph broken by hand as well comes out with sentences broken mid-line. Indented lines (examples) are kept
 * as written.
 */
class HelpTextTest {

    @Test
    void everyParagraphOfEveryCommandsHelpIsOneWholeString() {
        List<String> broken = new ArrayList<>();
        CommandLine root = CommandTree.build();
        List<CommandSpec> specs = new ArrayList<>(List.of(root.getCommandSpec()));
        root.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        for (CommandSpec spec : specs) {
            List<String> paragraphs = new ArrayList<>(List.of(spec.usageMessage().description()));
            paragraphs.addAll(List.of(spec.usageMessage().footer()));
            for (String paragraph : paragraphs) {
                boolean example = paragraph.startsWith("  ");
                if (!paragraph.isEmpty() && !example && !paragraph.matches("(?s).*[.:)]")) {
                    broken.add(spec.name() + ": '" + paragraph + "'");
                }
            }
        }
        assertEquals(List.of(), broken, "paragraphs that end mid-sentence");
    }

    /**
     * picocli wraps where java.text.BreakIterator allows, after "http:" and "-" too; the help is wrapped at spaces
     * only, so every URL and path in any description, option or footer stands whole in the printed help, and no line
     * is longer than 80 columns.
     */
    @Test
    void noUrlOrPathIsSplitAndNoLineIsLongerThan80Columns() {
        java.util.regex.Pattern token = java.util.regex.Pattern.compile("(?:[a-z]+://|/)[^\\s,;()]+");
        List<String> split = new ArrayList<>();
        CommandLine root = CommandTree.build();
        List<CommandLine> commands = new ArrayList<>(List.of(root));
        commands.addAll(root.getSubcommands().values());
        int seen = 0;
        for (CommandLine command : commands) {
            CommandSpec spec = command.getCommandSpec();
            String printed = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
            List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
            texts.addAll(List.of(spec.usageMessage().footer()));
            spec.options().forEach(option -> texts.addAll(List.of(option.description())));
            for (String text : texts) {
                java.util.regex.Matcher matcher = token.matcher(text);
                while (matcher.find()) {
                    String whole = matcher.group().replaceAll("[.:'\"]+$", "");
                    seen++;
                    if (!printed.contains(whole)) {
                        split.add(spec.name() + ": " + whole);
                    }
                }
            }
            printed.lines().filter(line -> line.length() > 80).forEach(line -> split.add(spec.name() + ": too long: " + line));
        }
        assertEquals(List.of(), split);
        assertTrue(seen > 30, "looked at " + seen + " URLs and paths");
    }

    /**
     * Example lines (indented) are printed as written, never wrapped: each fits picocli's 80 columns and stands
     * whole on a line of its command's help, so it can be copied.
     */
    @Test
    void everyExampleLineStandsWholeInTheHelpAsPrinted() {
        List<String> cut = new ArrayList<>();
        CommandLine root = CommandTree.build();
        for (CommandLine command : root.getSubcommands().values()) {
            CommandSpec spec = command.getCommandSpec();
            List<String> printed = List.of(command.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\n"));
            for (String line : spec.usageMessage().footer()) {
                if (line.startsWith("  ") && !printed.contains(line)) {
                    cut.add(spec.name() + ": '" + line + "' (" + line.length() + " characters)");
                }
            }
        }
        assertEquals(List.of(), cut, "example lines that picocli wrapped at 80 columns");
    }
}
