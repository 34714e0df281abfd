package dev.sidecarwait.tls;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The readers of TLS's files, fed hostile bytes: PEM text (--cacert, --cert, --key, the system's bundles) and the
 * DER of a PKCS#1 or SEC1 key (what the JVM rewraps as PKCS#8); and the engine boundary: what the native engine says of
 * a server's certificate, and a server's bytes into the JVM's engine. For any input, a result or an
 * IllegalArgumentException whose message says what is wrong in a few words and quotes nothing of the file (a key
 * must never reach a log); never another exception. Seeds, in src/test/resources/.../TlsReadersFuzzTestInputs/METHOD/:
 * a CA certificate openssl made and a bundle around it; keys' shapes (a SEC1 structure with a zero scalar, a PKCS#1
 * one of small integers), not keys: no key is committed.
 */
class TlsReadersFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void pemFile(byte[] file) {
        try {
            for (Pem.Block block : Pem.blocks(file)) {
                if (block.label() == null || block.der() == null) {
                    throw new AssertionError("a block without a label or bytes");
                }
            }
        } catch (IllegalArgumentException refused) {
            quotesNothing(refused, file);
        }
    }

    @FuzzTest(maxDuration = "15s")
    void keyDer(byte[] der) {
        for (Identity.Form form : Identity.Form.values()) {
            try {
                byte[] pkcs8 = KeyDer.pkcs8(new Identity.Key(form, der));
                if (pkcs8.length < der.length) {
                    throw new AssertionError("a rewrapped key shorter than the key");
                }
            } catch (IllegalArgumentException refused) {
                quotesNothing(refused, der);
            }
        }
    }

    /**
     * What the native engine reports about a server's certificate (swtls_peer's fields, PeerFields): a certificate or
     * a refusal, never another exception; a name holding what no DNS name holds never matches, and the names a line
     * lists hold no control character.
     */
    @FuzzTest(maxDuration = "15s")
    void peerFields(byte[] fields) {
        PeerCertificate certificate;
        try {
            certificate = PeerFields.read(fields, fields.length).certificate();
        } catch (IllegalArgumentException refused) {
            return;
        }
        for (String name : certificate.dnsNames()) {
            if (!ServerName.isDnsName(name) && ServerName.matches(name, new PeerCertificate("", "", java.time.Instant.EPOCH,
                    java.time.Instant.EPOCH, java.util.List.of(name), java.util.List.of()))) {
                throw new AssertionError("a name no DNS name could be matched: " + name);
            }
        }
        if (certificate.names().chars().anyMatch(c -> dev.sidecarwait.wire.PeerText.isControl((char) c))) {
            throw new AssertionError("a control character in a line: " + certificate.names());
        }
    }

    /**
     * A server's certificate as both engines hand it to the rules they share (ChainRules, NameConstraints, read by
     * CertificateParts and Der): alone, as its own CA (its name constraints over its own names) and as a trusted one;
     * for any bytes, a refusal in words or none, never an exception, and never a control character in the words.
     */
    @FuzzTest(maxDuration = "15s")
    void chainRules(byte[] der) {
        for (VerifiedChain chain : java.util.List.of(new VerifiedChain(java.util.List.of(der), java.util.List.of(der),
                java.util.List.of()), new VerifiedChain(java.util.List.of(der, der), java.util.List.of(der), java.util.List.of(der)))) {
            for (boolean refused : new boolean[] {false, true}) {
                String words = chain.refusal(refused);
                if (words != null && words.chars().anyMatch(c -> dev.sidecarwait.wire.PeerText.isControl((char) c))) {
                    throw new AssertionError("a control character in a line: " + words);
                }
            }
        }
    }

    /**
     * A server's bytes into the JVM's engine at the handshake, in one piece or two: the engine asks for more or fails
     * with a TlsException, never another exception.
     */
    @FuzzTest(maxDuration = "15s")
    void serverBytes(byte[] bytes) throws TlsException {
        TlsClient client = TlsClients.forRuntime(new Trust("none", java.util.List.of()), null);
        try (TlsEngine engine = client.engine("localhost", null, null)) {
            engine.handshake();
            engine.take(new byte[1 << 16]);
            int half = bytes.length / 2;
            engine.feed(java.util.Arrays.copyOf(bytes, half), half);
            engine.handshake();
            byte[] rest = java.util.Arrays.copyOfRange(bytes, half, bytes.length);
            engine.feed(rest, rest.length);
            engine.handshake();
        } catch (TlsException failed) {
            // a handshake that fails in the engine's own words
        }
    }

    private static void quotesNothing(IllegalArgumentException refused, byte[] input) {
        String message = refused.getMessage();
        if (message == null || message.isBlank() || message.length() > 120) {
            throw new AssertionError("a refusal that does not say what is wrong in a few words: " + message);
        }
        String text = new String(input, StandardCharsets.ISO_8859_1);
        for (String line : text.split("\n")) {
            if (line.strip().length() >= 16 && message.contains(line.strip())) {
                throw new AssertionError("the refusal quotes the file: " + message);
            }
        }
    }
}
