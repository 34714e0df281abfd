package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Delete;
import com.oracle.svm.core.annotate.TargetClass;
import picocli.CommandLine;

/**
 * Read only by native-image (GraalVM substitutions; the JVM never loads them). picocli's annotations are read while
 * the image is built, into the model the image holds (cli/CommandTree.java, class Prebuilt); at run time nothing
 * reads them (picocli's reader is not in the image: its way in, CommandLine.copy(), is refused by
 * Target_picocli_CommandLine). But the model keeps a java.lang.reflect.Field for each option, and the builder
 * registers every Field of the image heap for reflection with its annotations, which brings a proxy class for each
 * annotation type and the code to make, compare and print one (GraalVM 25's ReflectionDataBuilder, which skips an
 * annotation whose type is deleted). So in the binary no annotation of these types exists: getAnnotation answers
 * null for them, and a model read at run time would come out without its commands' options, which every process test
 * on the binary would show (they parse options). The JVM reads the annotations as before. NativeBuildTest checks
 * that these are exactly the picocli annotations the command tree carries.
 */
final class DeletedPicocliAnnotations {

    private DeletedPicocliAnnotations() {
    }

    @TargetClass(CommandLine.Command.class)
    @Delete
    static final class Command {
    }

    @TargetClass(CommandLine.Option.class)
    @Delete
    static final class Option {
    }

    @TargetClass(CommandLine.Parameters.class)
    @Delete
    static final class Parameters {
    }

    @TargetClass(CommandLine.Mixin.class)
    @Delete
    static final class Mixin {
    }

    @TargetClass(CommandLine.Spec.class)
    @Delete
    static final class Spec {
    }
}
