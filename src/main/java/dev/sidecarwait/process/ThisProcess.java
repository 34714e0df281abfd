package dev.sidecarwait.process;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What a run knows of its own process: the native binary's path, which `install` copies (looked up only when
 * asked), and how the process replaces itself with a wrapped command (null on the JVM, which cannot, and when no
 * command can follow).
 */
public final class ThisProcess {

    public static final ThisProcess JVM = new ThisProcess((Path) null, null);

    private final Supplier<Path> executable;
    private final ProcessReplacer replacer;

    public ThisProcess(Path executable, ProcessReplacer replacer) {
        this(() -> executable, replacer);
    }

    private ThisProcess(Supplier<Path> executable, ProcessReplacer replacer) {
        this.executable = executable;
        this.replacer = replacer;
    }

    /**
     * Called first thing in main. In the native binary, when a command may follow (it comes after --), it records
     * what the process inherited (signal dispositions and mask, open descriptors) before anything of ours can
     * change it; a hook, a check or a drain does not pay for reading it. Then it runs the image runtime's start-up
     * hooks, which main must run itself in this image ({@link StartupHooks}).
     */
    public static ThisProcess detect(boolean commandMayFollow) {
        return detect(NativeImage.RUNTIME, commandMayFollow, NativeReplacer::startingNow, () -> StartupHooks.run());
    }

    /**
     * The order that matters, for tests on the JVM: in the native image only, what the process inherited is read
     * first (a hook replaces default dispositions with handlers of its own), then the start-up hooks run, once.
     */
    static ThisProcess detect(boolean nativeImage, boolean commandMayFollow, Supplier<ProcessReplacer> inherited,
                              Runnable startupHooks) {
        if (!nativeImage) {
            return JVM;
        }
        ProcessReplacer replacer = commandMayFollow ? inherited.get() : null;
        startupHooks.run();
        return new ThisProcess(NativeImage::executable, replacer);
    }

    /** The running native binary; null on the JVM. */
    public Path executable() {
        return executable.get();
    }

    public ProcessReplacer replacer() {
        return replacer;
    }
}
