package dev.sidecarwait.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The client's own certificate chain and private key (DER), for servers that ask for one (mutual TLS): --cert and
 * --key, PEM as Kubernetes keeps them in a tls Secret. The key is never written anywhere; only the files' names are.
 */
public record Identity(Path certFile, Path keyFile, List<byte[]> chain, Key key) {

    /** The key's PEM label says its DER form: PKCS#8 ("PRIVATE KEY"), PKCS#1 ("RSA PRIVATE KEY") or SEC1 ("EC PRIVATE KEY"). */
    public enum Form { PKCS8, PKCS1_RSA, SEC1_EC }

    /** The key's bytes; its text form names the form only, so no log line or exception can carry the key. */
    public record Key(Form form, byte[] der) {
        @Override
        public String toString() {
            return "private key (" + form + ")";
        }
    }

    public Identity {
        chain = List.copyOf(chain);
    }

    /** Reads both files; a {@link BadFile} names the one at fault. */
    public static Identity read(Path certFile, Path keyFile) {
        List<byte[]> chain;
        try {
            chain = new java.util.ArrayList<>();
            for (Pem.Block block : Pem.blocks(bytes(BadFile.Role.CERT, certFile))) {
                if (block.label().equals("CERTIFICATE")) {
                    chain.add(block.der());
                }
            }
        } catch (BadFile e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new BadFile(BadFile.Role.CERT, certFile, e.getMessage());
        }
        if (chain.isEmpty()) {
            throw new BadFile(BadFile.Role.CERT, certFile, "it holds no PEM CERTIFICATE block");
        }
        List<Pem.Block> blocks;
        try {
            blocks = Pem.blocks(bytes(BadFile.Role.KEY, keyFile));
        } catch (BadFile e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new BadFile(BadFile.Role.KEY, keyFile, e.getMessage());
        }
        for (Pem.Block block : blocks) {
            Form form = switch (block.label()) {
                case "PRIVATE KEY" -> Form.PKCS8;
                case "RSA PRIVATE KEY" -> Form.PKCS1_RSA;
                case "EC PRIVATE KEY" -> Form.SEC1_EC;
                case "ENCRYPTED PRIVATE KEY" -> throw new BadFile(BadFile.Role.KEY, keyFile,
                        "the key is encrypted; give it unencrypted (a Kubernetes Secret already protects it)");
                default -> null;
            };
            if (form != null) {
                return new Identity(certFile, keyFile, chain, new Key(form, block.der()));
            }
        }
        throw new BadFile(BadFile.Role.KEY, keyFile, "it holds no PEM private key (PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
    }

    private static byte[] bytes(BadFile.Role role, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BadFile(role, file, "cannot read it (" + Unreadable.reason(e) + ")");
        }
    }

    @Override
    public String toString() {
        return "--cert " + certFile + " --key " + keyFile;
    }
}
