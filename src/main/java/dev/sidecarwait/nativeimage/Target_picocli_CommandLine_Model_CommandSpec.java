package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import picocli.CommandLine;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it as one). picocli asks of every value an
 * option takes ("--url http://...") whether it resembles an option, and first rules out a number by trying
 * Long.decode and Double.parseDouble: for any value that is not a number, two NumberFormatExceptions. In the binary
 * a thrown exception walks the stack, and the code metadata of each frame it reads is mapped 64 KiB at a time (the
 * kernel's fault-around): 64 KiB of a ready wait's peak RSS (docs/native.md, The diet). {@link OptionLikeness} asks in
 * the other order: the number only for a value that otherwise resembles an option. The answer is picocli 4.7.7's for
 * every argument (a number resembles no option either way), which ResemblesOptionTest checks against picocli's own
 * method; picocli's debug trace lines, which nothing can turn on in the binary (no system property reaches it), are
 * left out.
 */
@TargetClass(CommandLine.Model.CommandSpec.class)
final class Target_picocli_CommandLine_Model_CommandSpec {

    private Target_picocli_CommandLine_Model_CommandSpec() {
    }

    @Substitute
    boolean resemblesOption(String arg) {
        return OptionLikeness.resembles((CommandLine.Model.CommandSpec) (Object) this, arg);
    }
}
