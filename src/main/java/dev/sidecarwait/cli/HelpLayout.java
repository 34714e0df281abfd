package dev.sidecarwait.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * picocli's help, laid out as picocli lays it out but wrapped at spaces only: picocli breaks lines wherever
 * java.text.BreakIterator allows, which includes after "http:" and "-", so URLs and paths were split across lines.
 * Example lines (indented) are printed as written; each fits 80 columns (HelpTextTest).
 */
final class HelpLayout {

    private HelpLayout() {
    }

    /** Lays out the help of {@code command} and of every command below it. */
    static void apply(CommandLine command) {
        for (CommandLine each : CommandTree.everyCommand(command)) {
            Map<String, IHelpSectionRenderer> sections = each.getHelpSectionMap();
            sections.put(UsageMessageSpec.SECTION_KEY_DESCRIPTION, help -> paragraphs(help.commandSpec().usageMessage().description(),
                    help.commandSpec().usageMessage().width()));
            sections.put(UsageMessageSpec.SECTION_KEY_FOOTER, help -> paragraphs(help.commandSpec().usageMessage().footer(),
                    help.commandSpec().usageMessage().width()));
            sections.put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, help -> help.parameterList(layout(help),
                    help.parameterLabelRenderer()));
            sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> help.optionList(layout(help),
                    help.createDefaultOptionSort(), help.parameterLabelRenderer()));
        }
    }

    /** picocli's own columns, in a table that wraps at spaces. */
    private static Help.Layout layout(Help help) {
        return new Help.Layout(help.colorScheme(), new SpaceWrappedTable(help.colorScheme(), help.createDefaultLayout().textTable().columns()));
    }

    /** Each paragraph wrapped to {@code width}; an indented one (an example) as written; an empty one a blank line. */
    static String paragraphs(String[] paragraphs, int width) {
        StringBuilder text = new StringBuilder();
        for (String paragraph : paragraphs) {
            List<String> lines = paragraph.startsWith(" ") ? List.of(paragraph) : wrap(paragraph, width, width);
            lines.forEach(line -> text.append(line).append('\n'));
        }
        return text.toString();
    }

    /** Words in lines of at most {@code first}, then {@code later}, characters; a longer word stands alone. */
    static List<String> wrap(String text, int first, int later) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            int limit = lines.isEmpty() ? first : later;
            if (line.length() > 0 && line.length() + 1 + word.length() > limit) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** picocli's table, but its last column (the descriptions) wraps at spaces, two further in after the first line. */
    private static final class SpaceWrappedTable extends Help.TextTable {

        private final Help.ColorScheme scheme;

        SpaceWrappedTable(Help.ColorScheme scheme, Column[] columns) {
            super(scheme, columns);
            this.scheme = scheme;
        }

        @Override
        public Cell putValue(int row, int col, Text value) {
            Column column = columns()[col];
            if (col != columns().length - 1) {
                return super.putValue(row, col, value);
            }
            int width = column.width - column.indent;
            List<String> lines = wrap(value.plainString(), width, width - 2);
            Cell cell = super.putValue(row, col, scheme.text(lines.get(0)));
            for (String line : lines.subList(1, lines.size())) {
                addEmptyRow();
                cell = super.putValue(rowCount() - 1, col, scheme.text("  " + line));
            }
            return cell;
        }
    }
}
