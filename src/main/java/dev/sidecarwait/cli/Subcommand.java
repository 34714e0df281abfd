package dev.sidecarwait.cli;

/**
 * What a command does once picocli has filled in its options. The run's context is a parameter, never a field:
 * in the native binary the command objects are made while the image is built (see {@link CommandTree}), and
 * nothing of one run (its streams, environment, clock) may be in them.
 */
interface Subcommand {

    int run(Context context) throws Exception;
}
