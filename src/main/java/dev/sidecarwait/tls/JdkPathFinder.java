package dev.sidecarwait.tls;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * The path the JDK's PKIX accepted, found again for the rules both engines share ({@link VerifiedChain}): its trust
 * manager says that a path exists, not which.
 */
final class JdkPathFinder {

    /** Enough for any real chain; a server's many look-alike certificates cannot make the search costly. */
    private static final int MOST_SIGNATURES = 32;

    private JdkPathFinder() {
    }

    /**
     * The path PKIX accepted, found again (the JDK's trust manager does not say which it took): from the server's
     * certificate, each issuer by name and signature among the trusted CAs first, then among those the server sent,
     * with at most {@value #MOST_SIGNATURES} signatures checked; null when there is none.
     */
    static List<X509Certificate> path(X509Certificate[] chain, List<X509Certificate> anchors) {
        List<X509Certificate> path = new ArrayList<>(List.of(chain[0]));
        return extend(path, chain, anchors, new int[] {MOST_SIGNATURES}) ? path : null;
    }

    private static boolean extend(List<X509Certificate> path, X509Certificate[] chain, List<X509Certificate> anchors,
                                  int[] signaturesLeft) {
        X509Certificate top = path.get(path.size() - 1);
        if (anchors.contains(top)) {
            return true;
        }
        for (X509Certificate anchor : anchors) {
            if (signs(anchor, top, signaturesLeft)) {
                path.add(anchor);
                return true;
            }
        }
        if (path.size() >= VerifiedChain.MOST_CERTIFICATES) {
            return false;
        }
        for (X509Certificate next : chain) {
            if (!path.contains(next) && signs(next, top, signaturesLeft)) {
                path.add(next);
                if (extend(path, chain, anchors, signaturesLeft)) {
                    return true;
                }
                path.remove(path.size() - 1);
            }
        }
        return false;
    }

    private static boolean signs(X509Certificate issuer, X509Certificate certificate, int[] signaturesLeft) {
        if (!issuer.getSubjectX500Principal().equals(certificate.getIssuerX500Principal()) || signaturesLeft[0]-- <= 0) {
            return false;
        }
        try {
            certificate.verify(issuer.getPublicKey());
            return true;
        } catch (java.security.GeneralSecurityException notThisOne) {
            return false;
        }
    }

    static List<byte[]> encoded(List<X509Certificate> certificates) {
        List<byte[]> encoded = new ArrayList<>();
        for (X509Certificate certificate : certificates) {
            try {
                encoded.add(certificate.getEncoded());
            } catch (java.security.cert.CertificateEncodingException e) {
                throw new IllegalStateException(e);
            }
        }
        return encoded;
    }
}
