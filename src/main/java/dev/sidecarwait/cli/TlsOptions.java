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
            description = "Do not verify TLS servers' certificates (as the kubelet's HTTPS probes never do); said once in "
                    + "the log. Env: SIDECAR_WAIT_INSECURE.")
    boolean insecure;

    /**
     * The run's TLS, settled once: the files read and checked now (a bad one is a usage error naming it), the
     * system's CA bundle only when {@code tlsUsed} (a TLS target, or an https:// URL among the settings).
     */
    TlsSettings settle(Env env, boolean tlsUsed) {
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
                    insecure || env.isTrue("SIDECAR_WAIT_INSECURE"));
            settings.checkIdentity();
            return settings;
        } catch (BadFile e) {
            throw UsageError.invalid(source(e.role()), "'" + e.file() + "': " + e.reason());
        }
    }

    /** The flag, or its variable where the flag was not given. */
    private String source(BadFile.Role role) {
        return switch (role) {
            case CA -> cacert != null ? "--cacert" : "SIDECAR_WAIT_CACERT";
            case CERT -> cert != null ? "--cert" : "SIDECAR_WAIT_CERT";
            case KEY -> key != null ? "--key" : "SIDECAR_WAIT_KEY";
        };
    }

    /** Whether any of these URLs uses TLS: then the system's CA bundle is read. */
    static boolean used(List<Target> targets, AdminApi admin, List<Target.Http> quitUrls) {
        return targets.stream().anyMatch(Target::usesTls) || admin.url() != null && admin.url().usesTls()
                || quitUrls.stream().anyMatch(Target::usesTls);
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
