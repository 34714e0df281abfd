package dev.sidecarwait;

import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.process.ExecStage;
import dev.sidecarwait.process.ThisProcess;
import java.util.Arrays;

public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        // First: what the process inherited, before anything changes it, when a command (after --) may be handed it.
        ThisProcess self = ThisProcess.detect(Arrays.asList(args).contains("--"));
        if (args.length > 0 && args[0].equals(ExecStage.ARGUMENT) && self.replacer() != null) {
            System.exit(ExecStage.run(self.replacer(), Arrays.asList(args), System.getenv("PATH"), System.err));
        }
        System.exit(Cli.run(new Context(System.getenv(), Clock.SYSTEM, System.out, System.err, self), args));
    }
}
