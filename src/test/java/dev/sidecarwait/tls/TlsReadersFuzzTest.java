package dev.sidecarwait.tls;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * The readers of TLS's files, fed hostile bytes: PEM text (--cacert, --cert, --key, the system's bundles) and the
 * DER of a PKCS#1 or SEC1 key (what the JVM rewraps as PKCS#8). For any input, a result or an
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
