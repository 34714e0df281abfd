package dev.sidecarwait.tls;

/** What was wrong with the server's chain, as either engine reports it; the name is checked apart (ServerName). */
public enum ChainProblem {
    UNTRUSTED, EXPIRED, NOT_YET_VALID, OTHER
}
