package dev.sidecarwait.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Notes whether the server asked for a client certificate (the JDK chooses a client alias only then), and offers
 * the client's identity if there is one.
 */
final class JdkKeyRecorder extends X509ExtendedKeyManager {

    private final X509ExtendedKeyManager identity;
    boolean asked;

    /** {@code identity}: the key manager of --cert and --key, or null. */
    JdkKeyRecorder(X509ExtendedKeyManager identity) {
        this.identity = identity;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        asked = true;
        return identity == null ? null : identity.chooseEngineClientAlias(keyTypes, issuers, engine);
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        asked = true;
        return identity == null ? null : identity.chooseClientAlias(keyTypes, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return identity == null ? null : identity.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return identity == null ? null : identity.getPrivateKey(alias);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return identity == null ? null : identity.getClientAliases(keyType, issuers);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
