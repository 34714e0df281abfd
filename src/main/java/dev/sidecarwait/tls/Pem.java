package dev.sidecarwait.tls;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * PEM text (RFC 7468) read into its blocks: a label and the DER bytes. Text between blocks is ignored, as OpenSSL
 * ignores it (bundles carry comments). The same reader on the JVM and in the native binary, so a file that one
 * accepts the other accepts too.
 */
public final class Pem {

    /** One -----BEGIN LABEL----- ... -----END LABEL----- block. */
    public record Block(String label, byte[] der) {
    }

    private Pem() {
    }

    /** Every block, in order; the message of the exception says what is wrong without quoting the file. */
    public static List<Block> blocks(byte[] file) {
        String text = new String(file, StandardCharsets.ISO_8859_1);
        List<Block> blocks = new ArrayList<>();
        int at = 0;
        while (true) {
            int begin = text.indexOf("-----BEGIN ", at);
            if (begin < 0) {
                return blocks;
            }
            int labelEnd = text.indexOf("-----", begin + 11);
            int lineEnd = text.indexOf('\n', begin);
            if (labelEnd < 0 || (lineEnd >= 0 && labelEnd > lineEnd)) {
                throw new IllegalArgumentException("a BEGIN line that does not end in -----");
            }
            String label = text.substring(begin + 11, labelEnd);
            if (!label.matches("[A-Z0-9 ]{1,40}")) { // RFC 7468 labels: "CERTIFICATE", "EC PRIVATE KEY", ...
                throw new IllegalArgumentException("a BEGIN line without a PEM label");
            }
            String endLine = "-----END " + label + "-----";
            int end = text.indexOf(endLine, labelEnd + 5);
            if (end < 0) {
                throw new IllegalArgumentException("no END line for its " + named(label) + " block");
            }
            String body = text.substring(labelEnd + 5, end);
            if (body.contains("Proc-Type:") || body.contains("DEK-Info:")) {
                throw new IllegalArgumentException("its " + named(label) + " is encrypted; give it unencrypted (a Kubernetes "
                        + "Secret already protects it)");
            }
            try {
                blocks.add(new Block(label, Base64.getMimeDecoder().decode(body.strip())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("its " + named(label) + " block is not valid base64");
            }
            at = end + endLine.length();
        }
    }

    /**
     * A label as a refusal names it: one of the labels read here, else "PEM". A refusal never quotes the file, and a
     * label is the file's text (a fuzzer's BEGIN line of 28 letters was quoted whole).
     */
    private static String named(String label) {
        return List.of("CERTIFICATE", "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY").contains(label) ? label : "PEM";
    }
}
