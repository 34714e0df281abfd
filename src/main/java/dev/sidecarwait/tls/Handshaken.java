package dev.sidecarwait.tls;

/**
 * A finished handshake: the version and application protocol agreed, the server's certificate (null if it sent
 * none), what was wrong with its chain (null: nothing, or it was not checked), and whether the server asked for a
 * client certificate (in TLS 1.3 it may then still refuse the client, after the handshake).
 */
public record Handshaken(String version, String alpn, PeerCertificate certificate, ChainFinding finding,
                         boolean askedForCertificate) {
}
