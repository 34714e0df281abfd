package dev.sidecarwait.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What the failure lines need of an X.509 certificate, read by the JDK. */
final class JdkCertificates {

    private JdkCertificates() {
    }

    static PeerCertificate peer(X509Certificate certificate) {
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names != null) {
                for (List<?> name : names) {
                    if (Integer.valueOf(2).equals(name.get(0))) {
                        dns.add((String) name.get(1));
                    } else if (Integer.valueOf(7).equals(name.get(0))) {
                        java.net.InetAddress address = dev.sidecarwait.dns.Literals.parse((String) name.get(1));
                        ips.add(address == null ? (String) name.get(1) : dev.sidecarwait.dns.Literals.text(address));
                    }
                }
            }
        } catch (CertificateParsingException ignored) {
            // no names to show
        }
        return new PeerCertificate(commonName(certificate.getSubjectX500Principal().getName()),
                commonName(certificate.getIssuerX500Principal().getName()), certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant(), dns, ips);
    }

    /** The CN of an RFC 2253 name, else the whole name. */
    static String commonName(String rfc2253) {
        for (String part : rfc2253.split("(?<!\\\\),")) {
            if (part.startsWith("CN=")) {
                return part.substring(3).replace("\\", "");
            }
        }
        return rfc2253;
    }
}
