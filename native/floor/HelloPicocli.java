package floor;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Hello, and two options and a help option parsed by picocli, its model made at run time without reflection. */
public class HelloPicocli {
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        CommandSpec spec = CommandSpec.create().name("floor");
        spec.addOption(OptionSpec.builder("--url").type(String.class).description("the URL").build());
        spec.addOption(OptionSpec.builder("--timeoutSeconds").type(int.class).description("seconds").build());
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("this help").build());
        CommandLine line = new CommandLine(spec);
        line.setExecutionStrategy(parsed -> {
            if (parsed.isUsageHelpRequested()) {
                line.usage(System.out);
            } else {
                System.out.println("url " + parsed.matchedOptionValue("--url", "none"));
            }
            return 0;
        });
        return line.execute(args);
    }
}
