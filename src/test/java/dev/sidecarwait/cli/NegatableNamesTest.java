package dev.sidecarwait.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The image's tree shares one negatable-name transformer (NegatableNames) and parses and prints as the whole tree does. */
class NegatableNamesTest {

    @Test
    void picocliGivesEveryCommandAndMixinItsOwnTransformerAndTheImagesTreeOne() throws Exception {
        List<CommandSpec> whole = NegatableNames.everySpec(CommandTree.build());
        assertTrue(whole.size() >= 20, "commands and their mixins: " + whole.size());
        assertEquals(whole.size(), transformers(whole).size(), "picocli still makes one for each");
        assertEquals(4 * whole.size(), patterns(CommandTree.build()), "four compiled expressions each");

        CommandLine image = CommandTree.forTheImage();
        assertEquals(whole.size(), NegatableNames.everySpec(image).size());
        assertEquals(1, transformers(NegatableNames.everySpec(image)).size());
        assertEquals(4, patterns(image));
    }

    @Test
    void theNegativeNameParsesInTheImagesTreeAsInTheWholeTree() {
        for (String flag : List.of("--supervise", "--no-supervise")) {
            String[] args = {"wait", flag, "--", "app"};
            Object whole = CommandTree.build().parseArgs(args).subcommand().matchedOption("--supervise").getValue();
            Object image = CommandTree.forTheImage().parseArgs(args).subcommand().matchedOption("--supervise").getValue();
            assertEquals(flag.equals("--supervise"), whole, flag);
            assertEquals(whole, image, flag);
        }
        assertTrue(CommandTree.forTheImage().getSubcommands().get("wait").getUsageMessage(CommandLine.Help.Ansi.OFF)
                .contains("--[no-]supervise"));
    }

    private static Set<Object> transformers(List<CommandSpec> specs) {
        Set<Object> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        specs.forEach(spec -> distinct.add(spec.negatableOptionTransformer()));
        return distinct;
    }

    private static long patterns(CommandLine tree) throws IllegalAccessException {
        return CommandTreeTest.reachable(tree).keySet().stream().filter(Pattern.class::isInstance).count();
    }
}
