package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Alias;
import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import dev.sidecarwait.process.SignalNumbers;
import java.util.Map;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). sun.misc.Signal finds a signal's number
 * by name in the runtime's table, and GraalVM 25's has neither STKFLT nor the real-time signals, which Kubernetes 1.33
 * lets a container be stopped with (lifecycle.stopSignal): the supervising wrapper could not pass them on. The
 * runtime's handling below the name is by number, for every signal below NSIG (native/c/libchelper/signals.c), so this
 * finds the name where GraalVM's table has it and asks {@link SignalNumbers} where it does not. musl refuses a handler
 * for RTMIN (34, its own); the wrapper then leaves that one alone. scripts/native.sh checks that the original still
 * reads as this was written against (native/builder/substituted.txt).
 */
@TargetClass(className = "com.oracle.svm.core.posix.PosixSignalHandlerSupport")
final class Target_com_oracle_svm_core_posix_PosixSignalHandlerSupport {

    @Alias
    private Map<String, Integer> signalNameToSignalNum;

    private Target_com_oracle_svm_core_posix_PosixSignalHandlerSupport() {
    }

    @Substitute
    public int findSignal(String name) {
        Integer known = signalNameToSignalNum.get(name);
        return known != null ? known : SignalNumbers.of(name);
    }
}
