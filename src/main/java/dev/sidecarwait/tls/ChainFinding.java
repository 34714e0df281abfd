package dev.sidecarwait.tls;

import java.time.Instant;

/**
 * What the check of a server's chain found wrong: the problem; for {@link ChainProblem#OTHER}, the engine's reason in
 * words; for an expired or not yet valid chain, the certificate that is (null when the engine cannot tell).
 */
record ChainFinding(ChainProblem problem, String detail, Dated dated) {

    /** A certificate of the chain out of its validity: its depth (0 the server's own, 1 its issuer...), CN and dates. */
    record Dated(int depth, String subject, Instant notBefore, Instant notAfter) {
    }
}
