package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Alias;
import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). Before main, GraalVM 25's runtime raises
 * the soft limit on open files to the hard one (PosixNativeLibrarySupport.initializeBuiltinLibraries, "raise process fd
 * limit to hard max if possible"), as HotSpot does unless -XX:-MaxFDLimit, and every command the wrapper starts
 * inherited the raised limit where a direct start keeps the container runtime's (containerd 2 and Docker 25 give soft
 * 1024 on purpose: select() breaks above it, and a program that needs more raises its own, as Go does since 1.19 for
 * itself only, golang/go#46279). This is that method without the raise: the library loading and the FORK launch
 * mechanism as GraalVM 25.0.2 has them (substratevm/src/com.oracle.svm.core.posix/.../PosixNativeLibraryFeature.java),
 * for Linux, the only platform built. sidecar-wait needs a few dozen descriptors. scripts/native.sh checks that the
 * original still reads as this was written against (native/builder/substituted.txt); ExactStartTest that the command
 * gets every limit a direct start gets.
 */
@TargetClass(className = "com.oracle.svm.core.posix.PosixNativeLibrarySupport")
final class Target_com_oracle_svm_core_posix_PosixNativeLibrarySupport {

    private Target_com_oracle_svm_core_posix_PosixNativeLibrarySupport() {
    }

    @Alias
    protected native void loadJavaLibrary();

    @Alias
    private static native void loadNetLibrary();

    @Substitute
    public boolean initializeBuiltinLibraries() {
        try {
            loadJavaLibrary();
            loadNetLibrary();
            System.setProperty("jdk.lang.Process.launchMechanism", "FORK"); // no jspawnhelper beside a native image
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
        return true;
    }
}
