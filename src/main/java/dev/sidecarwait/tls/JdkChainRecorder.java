package dev.sidecarwait.tls;

import java.net.Socket;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Keeps the server's chain and what PKIX found wrong with it, and asks the judge inside the handshake, before the
 * client's certificate is sent; a refusal ends the handshake (nothing is checked or judged without a judge).
 */
final class JdkChainRecorder extends X509ExtendedTrustManager {

    private final X509TrustManager pkix;
    private final List<X509Certificate> anchors;
    private final List<byte[]> anchorsDer;
    private final CertificateJudge judge;
    X509Certificate leaf;
    ChainFinding finding;
    String refusal;

    /** {@code pkix}: null when no certificate could be read as a CA, which trusts nothing. */
    JdkChainRecorder(X509TrustManager pkix, List<X509Certificate> anchors, List<byte[]> anchorsDer, CertificateJudge judge) {
        this.pkix = pkix;
        this.anchors = anchors;
        this.anchorsDer = anchorsDer;
        this.judge = judge;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        leaf = chain.length > 0 ? chain[0] : null;
        if (judge == null) {
            return;
        }
        String expensive = expensiveKey(chain);
        List<X509Certificate> path = List.of();
        if (expensive != null) {
            finding = new ChainFinding(ChainProblem.OTHER, expensive, null);
        } else if (pkix == null) {
            finding = new ChainFinding(ChainProblem.UNTRUSTED, null, null);
        } else {
            try {
                pkix.checkServerTrusted(chain, authType);
                finding = anchorOutOfDate(chain);
                path = JdkPathFinder.path(chain, anchors);
                if (path == null) {
                    path = List.of();
                    finding = new ChainFinding(ChainProblem.OTHER, "no path to a trusted CA that this client can check "
                            + "(each issuer found by name and signature)", null);
                }
            } catch (CertificateException e) {
                finding = classify(e);
            }
        }
        refusal = judge.refusal(leaf == null ? null : JdkCertificates.peer(leaf), finding,
                new VerifiedChain(JdkPathFinder.encoded(path), JdkPathFinder.encoded(List.of(chain)), anchorsDer));
        if (refusal != null) {
            throw new CertificateException(refusal);
        }
    }

    /**
     * An RSA key whose public exponent has more than 32 bits, in the chain the server sent, is refused before any of its
     * signatures is checked (each would cost as much as a private key operation), as the binary's Mbed TLS refuses it
     * (native/tls/rsa-public-exponent.patch), Go (31 bits) and ring (33).
     */
    private static String expensiveKey(X509Certificate[] chain) {
        for (X509Certificate certificate : chain) {
            if (certificate.getPublicKey() instanceof java.security.interfaces.RSAPublicKey rsa
                    && rsa.getPublicExponent().bitLength() > 32) {
                return "an RSA key whose public exponent has " + rsa.getPublicExponent().bitLength() + " bits (65537 has 17; "
                        + "more than 32 are refused)";
            }
        }
        return null;
    }

    /**
     * PKIX takes a trust anchor as it is, dates and all (RFC 5280 6.1.1); Mbed TLS, OpenSSL and Go refuse a chain that
     * ends in an expired root, and so does this client: null when an anchor that issued the chain is in its dates.
     */
    private ChainFinding anchorOutOfDate(X509Certificate[] chain) {
        X509Certificate last = chain[chain.length - 1];
        Instant at = judge.now();
        ChainFinding.Dated outOfDate = null;
        for (X509Certificate anchor : anchors) {
            if (!anchor.getSubjectX500Principal().equals(last.getIssuerX500Principal())) {
                continue;
            }
            Instant from = anchor.getNotBefore().toInstant();
            Instant until = anchor.getNotAfter().toInstant();
            if (!at.isBefore(from) && !at.isAfter(until)) {
                return null;
            }
            int depth = anchor.equals(last) ? chain.length - 1 : chain.length;
            outOfDate = new ChainFinding.Dated(depth, JdkCertificates.commonName(anchor.getSubjectX500Principal().getName()), from, until);
        }
        if (outOfDate == null) {
            return null;
        }
        return new ChainFinding(at.isAfter(outOfDate.notAfter()) ? ChainProblem.EXPIRED : ChainProblem.NOT_YET_VALID, null, outOfDate);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        checkServerTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
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

    /** PKIX's exception as a finding, worded: the certificate out of its dates named, a broken constraint in words. */
    private static ChainFinding classify(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertPathValidatorException validator) {
                ChainFinding.Dated dated = dated(validator.getCertPath(), validator.getIndex());
                if (validator.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                    return new ChainFinding(ChainProblem.EXPIRED, null, dated);
                }
                if (validator.getReason() == CertPathValidatorException.BasicReason.NOT_YET_VALID) {
                    return new ChainFinding(ChainProblem.NOT_YET_VALID, null, dated);
                }
                if (validator.getReason() == CertPathValidatorException.BasicReason.ALGORITHM_CONSTRAINED) {
                    return new ChainFinding(ChainProblem.OTHER, "signed with an algorithm this client does not accept "
                            + "(SHA-1 or weaker, or a key too small)", null);
                }
                if (validator.getReason() == java.security.cert.PKIXReason.NOT_CA_CERT) {
                    return new ChainFinding(ChainProblem.OTHER, "the chain breaks a CA's constraint (an issuer that is not a CA)", null);
                }
                if (validator.getReason() == java.security.cert.PKIXReason.PATH_TOO_LONG) {
                    return new ChainFinding(ChainProblem.OTHER, "the chain breaks a CA's constraint (a path length)", null);
                }
                if (validator.getReason() == java.security.cert.PKIXReason.INVALID_NAME) {
                    return new ChainFinding(ChainProblem.OTHER, "the chain breaks a CA's constraint (a name constraint)", null);
                }
            }
            if (cause instanceof CertificateExpiredException) {
                return new ChainFinding(ChainProblem.EXPIRED, null, null);
            }
            if (cause instanceof CertificateNotYetValidException) {
                return new ChainFinding(ChainProblem.NOT_YET_VALID, null, null);
            }
            if (String.valueOf(cause.getMessage()).contains("PKIX path building failed")
                    || String.valueOf(cause.getMessage()).contains("unable to find valid certification path")) {
                return new ChainFinding(ChainProblem.UNTRUSTED, null, null);
            }
        }
        Throwable innermost = e;
        while (innermost.getCause() != null && innermost.getCause().getMessage() != null) {
            innermost = innermost.getCause();
        }
        return new ChainFinding(ChainProblem.OTHER, "refused by the JDK's PKIX check: " + innermost.getMessage(), null);
    }

    /** The certificate at {@code index} of the path PKIX checked (the path runs from the leaf, index 0, up). */
    private static ChainFinding.Dated dated(CertPath path, int index) {
        if (path == null || index < 0 || index >= path.getCertificates().size()
                || !(path.getCertificates().get(index) instanceof X509Certificate certificate)) {
            return null;
        }
        return new ChainFinding.Dated(index, JdkCertificates.commonName(certificate.getSubjectX500Principal().getName()),
                certificate.getNotBefore().toInstant(), certificate.getNotAfter().toInstant());
    }
}
