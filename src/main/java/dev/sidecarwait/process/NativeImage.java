package dev.sidecarwait.process;

/** Whether this code runs inside a GraalVM native image (ImageInfo's property, read without loading the SDK). */
final class NativeImage {

    static final boolean RUNTIME = "runtime".equals(System.getProperty("org.graalvm.nativeimage.imagecode"));

    private NativeImage() {
    }
}
