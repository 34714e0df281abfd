package dev.sidecarwait.nativeimage;

import picocli.CommandLine;

/**
 * picocli 4.7.7's answer to whether an argument resembles an option of a command (CommandSpec.resemblesOption),
 * asked so that a value that is not a number throws nothing: the binary's resemblesOption
 * (Target_picocli_CommandLine_Model_CommandSpec) and ResemblesOptionTest, which holds it to picocli's own.
 */
final class OptionLikeness {

    private OptionLikeness() {
    }

    static boolean resembles(CommandLine.Model.CommandSpec spec, String arg) {
        if (arg == null || arg.length() == 1) {
            return false;
        }
        boolean resembles;
        if (spec.options().isEmpty()) {
            resembles = arg.startsWith("-");
        } else {
            int count = 0; // at least one prefix character in common with 9 of 10 option names, as picocli counts
            for (String optionName : spec.optionsMap().keySet()) {
                int common = 0;
                while (common < arg.length() && common < optionName.length() && arg.charAt(common) == optionName.charAt(common)) {
                    common++;
                }
                count += common;
            }
            resembles = count > 0 && count * 10 >= spec.optionsMap().size() * 9;
        }
        return resembles && !isNumber(arg);
    }

    /** Negative numbers are not unknown options (picocli's comment). */
    private static boolean isNumber(String arg) {
        try {
            Long.decode(arg);
            return true;
        } catch (NumberFormatException notALong) {
            try {
                Double.parseDouble(arg);
                return true;
            } catch (NumberFormatException notADouble) {
                return false;
            }
        }
    }
}
