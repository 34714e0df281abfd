package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Alias;
import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). The first socket option a probe sets
 * (TCP_NODELAY, probe/Connector.java) makes the JDK ask for the jdk.net module's extended socket options:
 * getInstance tries Class.forName("jdk.net.ExtendedSocketOptions") and, when that fails, settles on none (JDK 25's
 * sun/net/ext/ExtendedSocketOptions.java). In the binary it always fails: nothing registers that class for
 * Class.forName. The ClassNotFoundException cost more than the answer: a thrown exception walks the stack, and the
 * code metadata of each frame it reads is mapped 64 KiB at a time (the kernel's fault-around), about 384 KiB of a
 * ready wait's peak RSS (docs/native.md, The diet). So the binary settles on none at once, as the JDK would after the
 * failure; sidecar-wait sets no extended option. scripts/native.sh checks that the JDK's method still reads as this
 * was written against (native/builder/substituted.txt).
 */
@TargetClass(className = "sun.net.ext.ExtendedSocketOptions")
final class Target_sun_net_ext_ExtendedSocketOptions {

    @Alias
    private static volatile Target_sun_net_ext_ExtendedSocketOptions instance;

    private Target_sun_net_ext_ExtendedSocketOptions() {
    }

    @Substitute
    public static Target_sun_net_ext_ExtendedSocketOptions getInstance() {
        Target_sun_net_ext_ExtendedSocketOptions none = instance;
        if (none == null) {
            // Two threads may each make one: they hold no state, and either answers the same (no options).
            none = (Target_sun_net_ext_ExtendedSocketOptions) (Object) new NoExtendedSocketOptions();
            instance = none;
        }
        return none;
    }

    /** The JDK's answer when the jdk.net module is absent. */
    @TargetClass(className = "sun.net.ext.ExtendedSocketOptions", innerClass = "NoExtendedSocketOptions")
    static final class NoExtendedSocketOptions {

        @Alias
        NoExtendedSocketOptions() {
        }
    }
}
