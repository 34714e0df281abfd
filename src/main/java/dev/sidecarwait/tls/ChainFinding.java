package dev.sidecarwait.tls;

import java.time.Instant;

/**
 * What the check of a server's chain found wrong: the problem; for {@link ChainProblem#OTHER}, the engine's reason in
 * words; for an expired or not yet valid chain, the certificate that is (null when the engine cannot tell). A plain
 * class, not a record: nothing compares or prints one, and a record's generated methods cost the binary code.
 */
final class ChainFinding {

    private final ChainProblem problem;
    private final String detail;
    private final Dated dated;

    ChainFinding(ChainProblem problem, String detail, Dated dated) {
        this.problem = problem;
        this.detail = detail;
        this.dated = dated;
    }

    ChainProblem problem() {
        return problem;
    }

    String detail() {
        return detail;
    }

    Dated dated() {
        return dated;
    }

    /** A certificate of the chain out of its validity: its depth (0 the server's own, 1 its issuer...), CN and dates. */
    static final class Dated {

        private final int depth;
        private final String subject;
        private final Instant notBefore;
        private final Instant notAfter;

        Dated(int depth, String subject, Instant notBefore, Instant notAfter) {
            this.depth = depth;
            this.subject = subject;
            this.notBefore = notBefore;
            this.notAfter = notAfter;
        }

        int depth() {
            return depth;
        }

        String subject() {
            return subject;
        }

        Instant notBefore() {
            return notBefore;
        }

        Instant notAfter() {
            return notAfter;
        }
    }
}
