package dev.sidecarwait.process;

import java.nio.file.Path;

/**
 * What a run knows of its own process: the native binary's path, which `install` copies, and how the process
 * replaces itself with a wrapped command (null on the JVM, which cannot).
 */
public record ThisProcess(Path executable, ProcessReplacer replacer) {

    public static final ThisProcess JVM = new ThisProcess(null, null);

    /**
     * Called first thing in main: in the native binary it records what the process inherited (signal
     * dispositions and mask, open descriptors) before anything of ours can change it.
     */
    public static ThisProcess detect() {
        return NativeImage.RUNTIME ? new ThisProcess(NativeImage.executable(), NativeReplacer.startingNow()) : JVM;
    }
}
