package dev.sidecarwait.tls;

/**
 * The runtime's TLS: the JDK's on the JVM. The native binary replaces this method with Mbed TLS's
 * (nativeimage/Target_dev_sidecarwait_tls_TlsClients.java), so the JDK's TLS and its security framework are not in
 * the binary at all (they would add 10.8 MB: docs/native.md), and Mbed TLS is never loaded on the JVM.
 */
public final class TlsClients {

    private TlsClients() {
    }

    /**
     * An engine maker for {@code trust} and {@code identity} (null: none). A {@link BadFile} says that the key cannot
     * be read or is not the certificate's.
     */
    public static TlsClient forRuntime(Trust trust, Identity identity) {
        return new JdkTls(trust, identity);
    }
}
