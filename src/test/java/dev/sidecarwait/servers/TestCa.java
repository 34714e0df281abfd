package dev.sidecarwait.servers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made by openssl for one test run, in a directory of its own, and the certificates it
 * issues: servers' (with the names and validity a case needs) and clients'. Its files are PEM, as a pod has them.
 */
public final class TestCa {

    /**
     * A CA under this one ("CN=name", EC P-256, a day), its v3 extensions a CA's and these more lines of openssl's
     * configuration ("nameConstraints = permitted;DNS:example.com", not critical unless it says so).
     */
    public TestCa intermediate(String name, String extensions) throws IOException, InterruptedException {
        TestCa ica = new TestCa(dir, name);
        Path csr = dir.resolve(fileName(name) + "-ca.csr");
        Path config = dir.resolve(fileName(name) + "-ca.ext");
        Files.writeString(config, "basicConstraints = critical, CA:TRUE\nkeyUsage = critical, keyCertSign, cRLSign\n"
                + extensions + "\n");
        openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                ica.key.toString(), "-out", csr.toString(), "-subj", "/CN=" + name);
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", cert.toString(), "-CAkey", key.toString(),
                "-set_serial", String.valueOf(1000 + serial++), "-days", "1", "-sha256", "-extfile", config.toString(),
                "-out", ica.cert.toString());
        return ica;
    }

    /** {@code leaf} as a server presents it with the CAs above it (leaf first, then each CA's certificate). */
    public static Issued chain(Issued leaf, TestCa... above) throws IOException {
        Path chain = Path.of(leaf.cert() + ".chain");
        StringBuilder pem = new StringBuilder(Files.readString(leaf.cert()));
        for (TestCa ca : above) {
            pem.append(Files.readString(ca.cert));
        }
        Files.writeString(chain, pem);
        return new Issued(chain, leaf.key());
    }

    /** A certificate and its key, PEM files. */
    public record Issued(Path cert, Path key) {
    }

    public final Path dir;
    public final Path cert;
    private final Path key;
    private final String name;
    private int serial = 1;

    private TestCa(Path dir, String name) {
        this.dir = dir;
        this.name = name;
        this.cert = dir.resolve(fileName(name) + "-ca.crt");
        this.key = dir.resolve(fileName(name) + "-ca.key");
    }

    /** A new CA, "CN=NAME", with an EC P-256 key, valid for a day. */
    public static TestCa create(Path dir, String name) throws IOException, InterruptedException {
        return create(dir, name, List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"));
    }

    /**
     * As {@link #create(Path, String)}, with these of openssl req's arguments for its key ("-newkey", "rsa:2052") and
     * extensions ("-addext", "nameConstraints = critical, permitted;DNS:svc.cluster.local").
     */
    public static TestCa create(Path dir, String name, List<String> keyAndExtensions) throws IOException, InterruptedException {
        TestCa ca = new TestCa(dir, name);
        List<String> request = new ArrayList<>(List.of("req", "-x509", "-nodes", "-keyout", ca.key.toString(), "-out",
                ca.cert.toString(), "-subj", "/CN=" + name, "-days", "1"));
        request.addAll(keyAndExtensions);
        openssl(dir, request.toArray(new String[0]));
        return ca;
    }

    /** As {@link #server}, with an RSA key of this many bits (1024: weak; 2052: no whole number of bytes). */
    public Issued serverWithRsaBits(int bits, String cn, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa-bits:" + bits, null, null, "serverAuth", "subjectAltName = " + String.join(",", names));
    }

    /** As {@link #server}, with these more lines of openssl's configuration for its extensions. */
    public Issued serverWith(String extensions, String cn, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa", null, null, "serverAuth", "subjectAltName = " + String.join(",", names) + "\n" + extensions);
    }

    /** A server certificate for "CN=cn" with these subject alternative names (DNS:..., IP:...), valid now, RSA key. */
    public Issued server(String cn, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa", null, null, "serverAuth", names.length == 0 ? "" : "subjectAltName = " + String.join(",", names));
    }

    /** As {@link #server}, valid only between two times (openssl's YYYYMMDDHHMMSSZ): expired, or not yet valid. */
    public Issued serverBetween(String cn, String from, String until, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa", from, until, "serverAuth", names.length == 0 ? "" : "subjectAltName = " + String.join(",", names));
    }

    /**
     * A server certificate whose CN and DNS names are these very bytes, whatever they hold (a newline, a NUL: what a
     * forged name is made of), as an issuer that checks nothing would sign them; the names go in as DER.
     */
    public Issued serverWithRawNames(String cn, List<byte[]> dnsNames) throws IOException, InterruptedException {
        java.io.ByteArrayOutputStream names = new java.io.ByteArrayOutputStream();
        for (byte[] name : dnsNames) {
            names.write(der(0x82, name)); // [2] dNSName, IA5String, implicit
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : der(0x30, names.toByteArray())) {
            hex.append(hex.length() == 0 ? "" : ":").append(String.format("%02X", b));
        }
        return issue(cn, "rsa", null, null, "serverAuth", "2.5.29.17 = DER:" + hex);
    }

    /** A DER element: its tag, its length (short or long form) and its contents. */
    private static byte[] der(int tag, byte[] contents) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(tag);
        int n = contents.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n & 0xff);
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }

    /** As {@link #server}, its RSA key's public exponent this (decimal) rather than 65537. */
    public Issued serverWithRsaExponent(String cn, String exponent, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa-exponent:" + exponent, null, null, "serverAuth", "subjectAltName = " + String.join(",", names));
    }

    /** A client certificate for "CN=cn", EC key (the SEC1 "EC PRIVATE KEY" form as openssl ec writes it). */
    public Issued client(String cn) throws IOException, InterruptedException {
        return issue(cn, "ec", null, null, "clientAuth", "");
    }

    /** {@code issued}'s key encrypted with a password (PKCS#8, as openssl pkcs8 -topk8 writes it), beside it. */
    public Path encryptedKey(Issued issued) throws IOException, InterruptedException {
        Path encrypted = Path.of(issued.key() + ".encrypted");
        openssl(dir, "pkcs8", "-topk8", "-in", issued.key().toString(), "-out", encrypted.toString(), "-passout", "pass:probe");
        return encrypted;
    }

    /** {@code names}: the subject alternative names' line of openssl's configuration, or "". */
    private Issued issue(String cn, String keyType, String from, String until, String usage, String names)
            throws IOException, InterruptedException {
        return issue(cn, keyType, from, until, usage, names, "sha256");
    }

    /** As {@link #server}, its signature made over this hash ("sha1": what no verifier accepts any more). */
    public Issued serverSignedOver(String hash, String cn, String... names) throws IOException, InterruptedException {
        return issue(cn, "rsa", null, null, "serverAuth", "subjectAltName = " + String.join(",", names), hash);
    }

    private Issued issue(String cn, String keyType, String from, String until, String usage, String names, String hash)
            throws IOException, InterruptedException {
        String base = fileName(name) + "-" + fileName(cn) + "-" + serial;
        Path leafKey = dir.resolve(base + ".key");
        Path csr = dir.resolve(base + ".csr");
        Path leaf = dir.resolve(base + ".crt");
        List<String> request = new ArrayList<>(List.of("req", "-new", "-nodes", "-out", csr.toString(), "-subj", "/CN=" + cn));
        if (keyType.startsWith("rsa-bits:")) { // an RSA key of this size, made first (openssl req refuses under 2048)
            openssl(dir, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:" + keyType.substring("rsa-bits:".length()),
                    "-out", leafKey.toString());
            request.addAll(List.of("-key", leafKey.toString()));
        } else if (keyType.startsWith("rsa-exponent:")) { // an RSA key with this public exponent, made first
            openssl(dir, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-pkeyopt",
                    "rsa_keygen_pubexp:" + keyType.substring("rsa-exponent:".length()), "-out", leafKey.toString());
            request.addAll(List.of("-key", leafKey.toString()));
        } else {
            request.addAll(List.of("-keyout", leafKey.toString()));
            request.addAll(keyType.equals("rsa") ? List.of("-newkey", "rsa:2048")
                    : List.of("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"));
        }
        openssl(dir, request.toArray(new String[0]));
        if (keyType.equals("ec")) {
            openssl(dir, "ec", "-in", leafKey.toString(), "-out", leafKey.toString());
        }
        Path config = dir.resolve(base + ".cnf");
        Path index = dir.resolve(base + ".index");
        Files.writeString(index, "");
        Files.writeString(config, String.join("\n", "[ca]", "default_ca = test", "[test]", "database = " + index,
                "new_certs_dir = " + dir, "serial = " + dir.resolve(base + ".serial"), "default_md = " + hash,
                "policy = any", "unique_subject = no", "x509_extensions = leaf", "default_days = 1", "[any]",
                "commonName = supplied", "[leaf]", "basicConstraints = CA:FALSE", "extendedKeyUsage = " + usage,
                names) + "\n");
        Files.writeString(dir.resolve(base + ".serial"), String.format("%02X%n", 0x10 + serial++));
        List<String> sign = new ArrayList<>(List.of("ca", "-batch", "-notext", "-config", config.toString(), "-cert",
                cert.toString(), "-keyfile", key.toString(), "-in", csr.toString(), "-out", leaf.toString()));
        if (from != null) {
            sign.addAll(List.of("-startdate", from, "-enddate", until));
        }
        openssl(dir, sign.toArray(new String[0]));
        return new Issued(leaf, leafKey);
    }

    private static String fileName(String name) {
        return name.replaceAll("[^A-Za-z0-9.-]", "_");
    }

    private static void openssl(Path dir, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed: " + output);
        }
    }
}
