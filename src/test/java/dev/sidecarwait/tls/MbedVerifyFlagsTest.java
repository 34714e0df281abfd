package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Mbed TLS's verify flags as the binary reports them, decided here on the JVM (the flags as x509.h defines them). */
class MbedVerifyFlagsTest {

    @Test
    void noFlagOrOnlyTheNameIsNoFinding() {
        assertNull(MbedVerifyFlags.finding(0, null));
        assertNull(MbedVerifyFlags.finding(MbedVerifyFlags.CN_MISMATCH, null), "the name is checked apart");
    }

    @Test
    void trustComesBeforeTheDates() {
        assertEquals(ChainProblem.UNTRUSTED, MbedVerifyFlags.finding(MbedVerifyFlags.NOT_TRUSTED | MbedVerifyFlags.EXPIRED, null).problem());
        assertEquals(ChainProblem.EXPIRED, MbedVerifyFlags.finding(MbedVerifyFlags.EXPIRED | MbedVerifyFlags.CN_MISMATCH, null).problem());
        assertEquals(ChainProblem.NOT_YET_VALID, MbedVerifyFlags.finding(MbedVerifyFlags.FUTURE, null).problem());
    }

    @Test
    void aRefusedHashOrKeyIsTheReasonEvenWhenUntrusted() {
        ChainFinding weak = MbedVerifyFlags.finding(MbedVerifyFlags.BAD_MD | MbedVerifyFlags.NOT_TRUSTED, null);
        assertEquals(ChainProblem.OTHER, weak.problem());
        assertEquals(TlsFailures.WEAK_HASH, weak.detail());
        assertEquals("signed with a key type this client does not accept",
                MbedVerifyFlags.finding(MbedVerifyFlags.BAD_PK, null).detail());
        assertEquals("its key usage does not allow a TLS server", MbedVerifyFlags.finding(MbedVerifyFlags.EXT_KEY_USAGE, null).detail());
    }

    @Test
    void anUnnamedFlagIsShownAsTheLibrarysNumber() {
        assertEquals("Mbed TLS verify flags 0x20", MbedVerifyFlags.finding(0x20, null).detail());
    }
}
