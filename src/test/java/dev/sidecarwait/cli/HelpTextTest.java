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
}
