package dev.sidecarwait.process;

import java.nio.file.Path;

/** Whether this code runs inside a GraalVM native image (ImageInfo's property, read without loading the SDK). */
public final class NativeImage {

    public static final boolean RUNTIME = "runtime".equals(System.getProperty("org.graalvm.nativeimage.imagecode"));

    private NativeImage() {
    }

    /** This process's executable when it is the native binary; null on the JVM (where it would be java). */
    public static Path executable() {
        return RUNTIME ? ProcessHandle.current().info().command().map(Path::of).orElse(null) : null;
    }
}
