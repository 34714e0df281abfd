package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.AdminApi;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.BadFile;
import dev.sidecarwait.tls.Identity;
import dev.sidecarwait.tls.TlsSettings;
import dev.sidecarwait.tls.Trust;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** How TLS servers are trusted, and the identity offered to them: shared by the commands that connect to servers. */
final class TlsOptions {

    @Option(names = "--cacert", paramLabel = "FILE",
            description = "CA certificates (PEM, one or more: a service account's ca.crt, a ConfigMap bundle) that TLS "
                    + "servers are verified against, in place of the system's (SSL_CERT_FILE, SSL_CERT_DIR, else the "
                    + "distribution's bundle). Env: SIDECAR_WAIT_CACERT.")
    String cacert;

    @Option(names = "--cert", paramLabel = "FILE",
            description = "A client certificate (PEM, the chain's leaf first) for servers that ask for one (mutual "
                    + "TLS); with --key. Env: SIDECAR_WAIT_CERT.")
    String cert;

    @Option(names = "--key", paramLabel = "FILE",
            description = "The client certificate's private key (PEM: PKCS#8, RSA or EC; not encrypted). Env: SIDECAR_WAIT_KEY.")
    String key;

    @Option(names = "--insecure",
            description = "Do not verify TLS servers' certificates (as the kubelet's HTTPS probes never do): the wait's "
                    + "https:// and other TLS targets, and an https:// --quit-url or --admin-url; said in the log "
                    + "whenever a connection goes unverified. Refused beside a URL that asks for verification itself "
                    + "(sslmode=verify-full, ssl-mode=VERIFY_IDENTITY). Env: SIDECAR_WAIT_INSECURE.")
    boolean insecure;

    /**
     * The run's TLS, settled once, for {@code urls} (the targets and every URL among the settings): the files read and
     * checked now (a bad one is a usage error naming it), the system's CA bundle only when one of them uses TLS, and
     * when one is to be verified, the trusted CAs must hold one this client can use, or nothing could be verified.
     */
    TlsSettings settle(Env env, List<Target> urls) {
        boolean tlsUsed = urls.stream().anyMatch(Target::usesTls);
        boolean insecureGiven = insecure || env.isTrue("SIDECAR_WAIT_INSECURE");
        for (Target url : insecureGiven ? urls : List.<Target>of()) {
            if (url.asksVerification()) {
                throw UsageError.invalid(insecure ? "--insecure" : "SIDECAR_WAIT_INSECURE", "it contradicts '"
                        + Target.redacted(url.text()) + "', which asks for its server to be verified; leave one of them out");
            }
        }
        Path caFile = path(cacert, env, "SIDECAR_WAIT_CACERT");
        Path certFile = path(cert, env, "SIDECAR_WAIT_CERT");
        Path keyFile = path(key, env, "SIDECAR_WAIT_KEY");
        if ((certFile == null) != (keyFile == null)) {
            BadFile.Role given = certFile != null ? BadFile.Role.CERT : BadFile.Role.KEY;
            throw UsageError.invalid(source(given), "'" + (certFile != null ? certFile : keyFile) + "' needs "
                    + (certFile != null ? "its key (--key)" : "its certificate (--cert)") + " too");
        }
        try {
            Trust trust = caFile != null ? Trust.file(caFile)
                    : tlsUsed ? Trust.system(Path.of("/"), env::get) : Trust.notRead();
            TlsSettings settings = new TlsSettings(trust, certFile == null ? null : Identity.read(certFile, keyFile),
                    insecureGiven);
            settings.checkIdentity();
            boolean verifies = tlsUsed && !insecureGiven && urls.stream().anyMatch(Target::verifiesTls);
            if (verifies && caFile != null && trust.usable().isEmpty()) {
                throw new BadFile(BadFile.Role.CA, caFile, "no certificate in it can be used as a CA (" + trust.whyUnusable() + ")");
            }
            if (verifies && settings.usableCas() == 0) {
                throw caFile != null ? new BadFile(BadFile.Role.CA, caFile, "no certificate in it can be used as a CA "
                        + "(none is one this client's TLS reads)")
                        : UsageError.invalid(systemSource(env), trust.certificates().isEmpty() ? trust.source()
                        : "none of " + trust.source() + " can be used as a CA; give --cacert FILE");
            }
            return settings;
        } catch (BadFile e) {
            throw UsageError.invalid(source(e.role()), "'" + e.file() + "': " + e.reason());
        }
    }

    /** Where the system's CA certificates were looked for, as a usage error names it. */
    private static String systemSource(Env env) {
        String file = env.get("SSL_CERT_FILE");
        String dir = env.get("SSL_CERT_DIR");
        return file != null && !file.isEmpty() ? "SSL_CERT_FILE" : dir != null && !dir.isEmpty() ? "SSL_CERT_DIR"
                : "the system's CA bundle";
    }

    /** The flag, or its variable where the flag was not given. */
    private String source(BadFile.Role role) {
        return switch (role) {
            case CA -> cacert != null ? "--cacert" : "SIDECAR_WAIT_CACERT";
            case CERT -> cert != null ? "--cert" : "SIDECAR_WAIT_CERT";
            case KEY -> key != null ? "--key" : "SIDECAR_WAIT_KEY";
        };
    }

    /** Every URL a run connects to that TLS may concern: the targets, the admin API's, the quit URLs. */
    static List<Target> urls(List<Target> targets, AdminApi admin, List<Target.Http> quitUrls) {
        List<Target> all = new java.util.ArrayList<>(targets);
        if (admin.url() != null) {
            all.add(admin.url());
        }
        all.addAll(quitUrls);
        return all;
    }

    private static Path path(String flag, Env env, String variable) {
        String value = flag != null ? flag : env.get(variable);
        if (value == null) {
            return null;
        }
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw UsageError.invalid(flag != null ? variable.replace("SIDECAR_WAIT_", "--").toLowerCase(java.util.Locale.ROOT) : variable,
                    "'" + value + "' is not a file name (" + e.getReason() + ")");
        }
    }
}
