package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import dev.sidecarwait.tls.Identity;
import dev.sidecarwait.tls.MbedTls;
import dev.sidecarwait.tls.TlsClient;
import dev.sidecarwait.tls.Trust;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). The binary's TLS is Mbed TLS (linked
 * from scripts/native.sh's libswtls.a), not the JDK's: with this, nothing reaches javax.net.ssl or the JDK's
 * security providers, which cost 10.8 MB (docs/native.md, What TLS costs).
 */
@TargetClass(className = "dev.sidecarwait.tls.TlsClients")
final class Target_dev_sidecarwait_tls_TlsClients {

    private Target_dev_sidecarwait_tls_TlsClients() {
    }

    @Substitute
    public static TlsClient forRuntime(Trust trust, Identity identity) {
        return new MbedTls(trust, identity);
    }
}
