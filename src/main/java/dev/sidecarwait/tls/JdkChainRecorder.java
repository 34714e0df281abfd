package dev.sidecarwait.tls;

import java.net.Socket;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/** Keeps the server's chain and what PKIX found wrong with it (nothing checked when there is no checker). */
final class JdkChainRecorder extends X509ExtendedTrustManager {

    private final X509TrustManager pkix;
    X509Certificate leaf;
    ChainProblem problem;
    String detail;

    JdkChainRecorder(X509TrustManager pkix) {
        this.pkix = pkix;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        leaf = chain.length > 0 ? chain[0] : null;
        if (pkix == null) {
            return;
        }
        try {
            pkix.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            problem = classify(e);
            detail = String.valueOf(e.getMessage());
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a client does not check clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }

    private static ChainProblem classify(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertificateExpiredException) {
                return ChainProblem.EXPIRED;
            }
            if (cause instanceof CertificateNotYetValidException) {
                return ChainProblem.NOT_YET_VALID;
            }
            if (cause instanceof CertPathValidatorException validator) {
                if (validator.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                    return ChainProblem.EXPIRED;
                }
                if (validator.getReason() == CertPathValidatorException.BasicReason.NOT_YET_VALID) {
                    return ChainProblem.NOT_YET_VALID;
                }
            }
            if (String.valueOf(cause.getMessage()).contains("PKIX path building failed")
                    || String.valueOf(cause.getMessage()).contains("unable to find valid certification path")) {
                return ChainProblem.UNTRUSTED;
            }
        }
        return ChainProblem.OTHER;
    }
}
