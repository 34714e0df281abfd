package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import picocli.CommandLine;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). picocli copies a command, reading its
 * annotations and building a new model at run time, only when a repeatable subcommand is matched a second time
 * (CommandLine.Interpreter checks CommandSpec.subcommandsRepeatable() first). No command here is repeatable, but the
 * image's analysis cannot see that, and kept picocli's whole annotation reader and the annotation proxies reachable
 * for it. Refusing instead leaves them out. NativeBuildTest checks that the signature still matches picocli's and that
 * no command of the tree is repeatable.
 */
@TargetClass(CommandLine.class)
final class Target_picocli_CommandLine {

    private Target_picocli_CommandLine() {
    }

    @Substitute
    private CommandLine copy() {
        throw new UnsupportedOperationException("sidecar-wait has no repeatable subcommand, so picocli never copies one");
    }
}
