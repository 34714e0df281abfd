package dev.sidecarwait;

import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;

public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new Context(System.getenv(), Clock.SYSTEM, System.out, System.err), args));
    }
}
