package dev.sidecarwait.tls;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS on the JVM: the JDK's SSLEngine, its records moved by {@link TlsConnection} as Mbed TLS's are in the native
 * binary. The chain is checked by the JDK's PKIX trust manager against {@link Trust}'s certificates alone; what it
 * finds is recorded rather than thrown, so the handshake ends and the failure line is worded as the native one.
 */
final class JdkTls implements TlsClient {

    private final X509TrustManager pkix;
    private final List<X509Certificate> anchors = new ArrayList<>();
    /** The same, as their DER: what {@link VerifiedChain} compares a path's last certificate with. */
    private final List<byte[]> anchorsDer = new ArrayList<>();
    private final X509ExtendedKeyManager identity;

    JdkTls(Trust trust, Identity identity) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            KeyStore anchors = KeyStore.getInstance("PKCS12");
            anchors.load(null, null);
            int i = 0;
            // a trust anchor's name constraints are dropped by the JDK's PKIX as it reads them from a key store, and
            // applied after it with the rest of ChainRules to the anchor of each path, as in the binary
            for (byte[] der : trust.certificates()) {
                try {
                    X509Certificate anchor = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der));
                    anchors.setCertificateEntry("ca" + i++, anchor);
                    this.anchors.add(anchor);
                    anchorsDer.add(der);
                } catch (CertificateException | ClassCastException unreadable) {
                    // as Mbed TLS and OpenSSL, a bundle's certificate that cannot be read is skipped
                }
            }
            X509TrustManager found = null;
            if (anchors.size() > 0) {
                TrustManagerFactory trustManagers = TrustManagerFactory.getInstance("PKIX");
                trustManagers.init(anchors);
                for (TrustManager manager : trustManagers.getTrustManagers()) {
                    if (manager instanceof X509TrustManager x509) {
                        found = x509;
                    }
                }
            }
            pkix = found;
            this.identity = identity == null ? null : keyManager(identity, factory);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("the JDK's TLS could not start: " + e.getMessage(), e);
        }
    }

    private static X509ExtendedKeyManager keyManager(Identity identity, CertificateFactory factory) throws GeneralSecurityException,
            java.io.IOException {
        List<X509Certificate> chain = new ArrayList<>();
        for (byte[] der : identity.chain()) {
            try {
                chain.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
            } catch (CertificateException e) {
                throw new BadFile(BadFile.Role.CERT, identity.certFile(), "a certificate that cannot be read");
            }
        }
        PrivateKey key = privateKey(identity);
        if (!matches(key, chain.get(0))) {
            throw new BadFile(BadFile.Role.KEY, identity.keyFile(), "it is not the key of --cert "
                    + identity.certFile() + " (the first certificate there)");
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", key, new char[0], chain.toArray(new X509Certificate[0]));
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(store, new char[0]);
        for (KeyManager manager : managers.getKeyManagers()) {
            if (manager instanceof X509ExtendedKeyManager x509) {
                return x509;
            }
        }
        throw new IllegalStateException("the JDK made no X.509 key manager");
    }

    private static PrivateKey privateKey(Identity identity) {
        byte[] pkcs8;
        try {
            pkcs8 = KeyDer.pkcs8(identity.key());
        } catch (IllegalArgumentException e) {
            throw new BadFile(BadFile.Role.KEY, identity.keyFile(), e.getMessage());
        }
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            } catch (GeneralSecurityException notThisOne) {
                // the next algorithm
            }
        }
        throw new BadFile(BadFile.Role.KEY, identity.keyFile(), "not a private key this client can use "
                + "(RSA, EC or Ed25519)");
    }

    /** Whether {@code key} signs what the certificate's public key verifies. */
    private static boolean matches(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "sidecar-wait".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    @Override
    public int usableCas() {
        return anchors.size();
    }

    @Override
    public TlsEngine engine(String serverName, CertificateJudge judge, String alpn) throws TlsException {
        JdkChainRecorder recorder = new JdkChainRecorder(pkix, anchors, anchorsDer, judge);
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            JdkKeyRecorder asked = new JdkKeyRecorder(identity);
            context.init(new KeyManager[] {asked}, new TrustManager[] {recorder}, null);
            SSLEngine engine = serverName == null ? context.createSSLEngine() : context.createSSLEngine(serverName, 443);
            engine.setUseClientMode(true);
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            if (serverName != null) {
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
            }
            if (alpn != null) {
                parameters.setApplicationProtocols(new String[] {alpn});
            }
            engine.setSSLParameters(parameters);
            return new JdkTlsEngine(engine, recorder, asked);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new TlsException(-1, String.valueOf(e.getMessage()));
        }
    }

}
