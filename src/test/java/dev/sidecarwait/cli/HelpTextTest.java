package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
