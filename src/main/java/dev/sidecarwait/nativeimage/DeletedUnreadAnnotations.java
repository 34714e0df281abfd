package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Delete;
import com.oracle.svm.core.annotate.TargetClass;

/**
 * Read only by native-image (GraalVM substitutions; the JVM never loads them). GraalVM 25 keeps the run-time
 * annotations of every type in the image (RuntimeMetadataEncoderImpl.addClassMetadata), and with them a proxy class
 * for each annotation type and the code to make, compare and print one. These types annotate the image builder's own
 * classes (its C interface) and the JDK's deprecated ones, and nothing in the image asks for
 * them at run time: the builder refuses a deleted type that reachable code names, and the one reflective reader here,
 * picocli's, is not in the image (DeletedPicocliAnnotations). So in the binary getAnnotations leaves them out. The
 * file 65,536 bytes smaller (docs/native-journal.md, The diet). NativeBuildTest checks each is an annotation type
 * kept at run time, so that none is deleted for nothing.
 */
final class DeletedUnreadAnnotations {

    private DeletedUnreadAnnotations() {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.function.CLibrary")
    @Delete
    static final class CLibrary {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.CContext")
    @Delete
    static final class CContext {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.struct.CStruct")
    @Delete
    static final class CStruct {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.constant.CEnum")
    @Delete
    static final class CEnum {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.struct.CPointerTo")
    @Delete
    static final class CPointerTo {
    }

    @TargetClass(className = "org.graalvm.nativeimage.c.struct.RawStructure")
    @Delete
    static final class RawStructure {
    }

    @TargetClass(className = "org.graalvm.nativeimage.Platforms")
    @Delete
    static final class Platforms {
    }

    @TargetClass(className = "java.lang.Deprecated")
    @Delete
    static final class Deprecated {
    }
}
