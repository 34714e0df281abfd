package dev.sidecarwait.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.nio.file.DirectoryStream;
import java.util.Collections;

/**
 * The CA certificates a server's chain is verified against (DER), and where they came from, for check and for the
 * failure lines. Read once per run, only when a target uses TLS.
 *
 * <p>Where they are looked for, as Go's crypto/x509 (root_linux.go) and OpenSSL look: --cacert FILE; else
 * SSL_CERT_FILE, else the first of the distributions' bundles that exists; and SSL_CERT_DIR (colon-separated), else
 * /etc/ssl/certs and /etc/pki/tls/certs when no bundle was found.
 */
public record Trust(String source, List<byte[]> certificates) {

    /** Debian and Ubuntu, RHEL and Fedora (two), openSUSE, OpenELEC, CentOS and RHEL 7, Alpine: Go's certFiles. */
    static final List<String> BUNDLES = List.of("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt",
            "/etc/ssl/ca-bundle.pem", "/etc/pki/tls/cacert.pem", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
            "/etc/ssl/cert.pem");
    /** Go's certDirectories: SLES, Fedora and RHEL. */
    static final List<String> DIRECTORIES = List.of("/etc/ssl/certs", "/etc/pki/tls/certs");

    public Trust {
        certificates = List.copyOf(certificates);
    }

    /** None, not looked for: a run with no TLS target reads no bundle. */
    public static Trust notRead() {
        return new Trust("not read: no TLS target", List.of());
    }

    /** --cacert: every CERTIFICATE block of a PEM file, at least one; a {@link BadFile} says what is wrong. */
    public static Trust file(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadFile(BadFile.Role.CA, file, "cannot read it (" + Unreadable.reason(e) + ")");
        }
        List<byte[]> certificates;
        try {
            certificates = certificates(bytes);
        } catch (IllegalArgumentException e) {
            throw new BadFile(BadFile.Role.CA, file, e.getMessage());
        }
        if (certificates.isEmpty()) {
            throw new BadFile(BadFile.Role.CA, file, "it holds no PEM CERTIFICATE block");
        }
        return new Trust("--cacert " + file + " (" + count(certificates.size()) + ")", certificates);
    }

    /**
     * The system's, read from {@code root} (/ in a pod; a test's own tree), with the environment's overrides: the
     * bundle file, and the certificates of SSL_CERT_DIR's directories when it is set (of the distributions' when no
     * bundle was found).
     */
    public static Trust system(Path root, Function<String, String> env) {
        String fileVariable = env.apply("SSL_CERT_FILE");
        String dirVariable = env.apply("SSL_CERT_DIR");
        boolean fileSet = fileVariable != null && !fileVariable.isEmpty();
        boolean dirSet = dirVariable != null && !dirVariable.isEmpty();
        List<byte[]> certificates = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (String candidate : fileSet ? List.of(fileVariable) : BUNDLES) {
            Path path = inside(root, candidate);
            if (Files.isRegularFile(path)) {
                String named = (fileSet ? "SSL_CERT_FILE " : "") + candidate;
                try {
                    List<byte[]> read = certificates(Files.readAllBytes(path));
                    certificates.addAll(read);
                    sources.add(named + " (" + count(read.size()) + ")");
                } catch (IOException | IllegalArgumentException e) {
                    sources.add(named + " (unreadable: " + message(e) + ")");
                }
                break;
            }
        }
        if (dirSet || sources.isEmpty()) {
            for (String directory : dirSet ? List.of(dirVariable.split(":")) : DIRECTORIES) {
                int before = certificates.size();
                readDirectory(inside(root, directory), certificates);
                if (certificates.size() > before) {
                    sources.add((dirSet ? "SSL_CERT_DIR " : "") + directory + " (" + count(certificates.size() - before) + ")");
                }
            }
        }
        if (certificates.isEmpty()) {
            return new Trust("none: no CA bundle in this image (" + (fileSet ? "SSL_CERT_FILE " + fileVariable
                    : "looked in " + String.join(", ", BUNDLES)) + (dirSet ? ", SSL_CERT_DIR " + dirVariable : "")
                    + "); give --cacert FILE", List.of());
        }
        return new Trust(String.join(" and ", sources), certificates);
    }

    /**
     * The certificates that can be trust anchors here, in order: read by {@link CertificateParts} and within
     * {@link ChainRules}' key policy and rules for a CA, the same on both engines. Asked of a --cacert file, so that one
     * with none is a usage error that says why; the engines load every certificate they read, and the rules judge the
     * trust anchor of each path (reading a system bundle's 144 here at every start cost 9 ms in the binary).
     */
    public List<byte[]> usable() {
        List<byte[]> usable = new ArrayList<>();
        for (byte[] der : certificates) {
            if (refusal(der) == null) {
                usable.add(der);
            }
        }
        return usable;
    }

    /** Why the first certificate that cannot be a trust anchor cannot, for a line that says none can; null if all can. */
    public String whyUnusable() {
        for (byte[] der : certificates) {
            String refusal = refusal(der);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    private static String refusal(byte[] der) {
        CertificateParts parts;
        try {
            parts = new CertificateParts(der);
        } catch (IllegalArgumentException e) {
            return "not an X.509 certificate this client reads (" + e.getMessage() + ")";
        }
        return ChainRules.refusal(parts, "'" + PeerCertificate.shown(parts.commonName()) + "'", true);
    }

    private static Path inside(Path root, String path) {
        return root.resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    /** Every PEM certificate of a directory's files, in name order; as OpenSSL, other files are skipped. */
    private static void readDirectory(Path directory, List<byte[]> into) {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(directory)) {
            listing.forEach(entries::add);
        } catch (IOException notThere) {
            return;
        }
        Collections.sort(entries);
        for (Path entry : entries) {
            try {
                into.addAll(certificates(Files.readAllBytes(entry)));
            } catch (IOException | IllegalArgumentException skipped) {
                // links to nowhere, hashes, READMEs: not certificates
            }
        }
    }

    private static List<byte[]> certificates(byte[] file) {
        List<byte[]> certificates = new ArrayList<>();
        for (Pem.Block block : Pem.blocks(file)) {
            if (block.label().equals("CERTIFICATE")) {
                certificates.add(block.der());
            }
        }
        return certificates;
    }

    private static String count(int n) {
        return n == 1 ? "1 certificate" : n + " certificates";
    }

    private static String message(Exception e) {
        return e instanceof IOException io ? Unreadable.reason(io) : e.getMessage();
    }
}
