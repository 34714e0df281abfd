package dev.sidecarwait;

import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.process.ThisProcess;

public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        ThisProcess self = ThisProcess.detect(); // first: what the process inherited, before anything changes it
        System.exit(Cli.run(new Context(System.getenv(), Clock.SYSTEM, System.out, System.err, self), args));
    }
}
