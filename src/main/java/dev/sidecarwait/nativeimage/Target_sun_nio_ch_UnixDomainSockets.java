package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import java.io.IOException;
import java.net.BindException;
import java.net.UnixDomainSocketAddress;
import java.util.Random;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). The JDK's Unix-socket support makes,
 * as its class initializes, a SecureRandom ("NativePRNGNonBlocking") for one purpose: the temporary name a socket
 * bound to no address gets (generateTempName, JDK 25's sun/nio/ch/UnixDomainSockets.java). That brought the JDK's whole
 * provider framework into the binary for unix:// targets (1.18 MB, 846 methods; docs/native.md, the diet), and
 * sidecar-wait only ever connects to a Unix socket, never binds one. So the random is never made, and a bind to a
 * temporary name is refused. scripts/native.sh checks that the JDK's methods still read as these were written
 * against (native/builder/substituted.txt).
 */
@TargetClass(className = "sun.nio.ch.UnixDomainSockets")
final class Target_sun_nio_ch_UnixDomainSockets {

    private Target_sun_nio_ch_UnixDomainSockets() {
    }

    @Substitute
    private static Random getRandom() {
        return null; // read by generateTempName alone, below
    }

    @Substitute
    static UnixDomainSocketAddress generateTempName() throws IOException {
        throw new BindException("sidecar-wait binds no Unix socket");
    }
}
