package dev.sidecarwait.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * picocli gives every command and every mixin its own transformer for negatable option names (--supervise and
 * --no-supervise), each with four compiled regular expressions: 24 of them in our tree, about 2,700 objects of the
 * native image's heap. They all behave the same (picocli's default), so the tree made while the image is built
 * gives every command and mixin the root's ({@link CommandTree}); setting one makes picocli work the negative names
 * out again with it. On the JVM nothing changes.
 */
final class NegatableNames {

    private NegatableNames() {
    }

    static CommandLine shareTheRootsTransformer(CommandLine root) {
        CommandLine.INegatableOptionTransformer shared = root.getCommandSpec().negatableOptionTransformer();
        for (CommandSpec spec : everySpec(root)) {
            spec.negatableOptionTransformer(shared);
        }
        return root;
    }

    /** Every command's spec and, within each, its mixins' and theirs. */
    static List<CommandSpec> everySpec(CommandLine root) {
        List<CommandSpec> all = new ArrayList<>();
        for (CommandLine command : CommandTree.everyCommand(root)) {
            all.add(command.getCommandSpec());
        }
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).mixins().values());
        }
        return all;
    }
}
