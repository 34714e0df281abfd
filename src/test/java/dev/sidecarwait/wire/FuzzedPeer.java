package dev.sidecarwait.wire;

import dev.sidecarwait.Clock;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * What every fuzz target of a peer's bytes shares: a {@link Wire} over the bytes (served in pieces, as a socket
 * delivers them), with its deadline and every size cap, and the property checked for every input: an answer, or
 * a {@link ProbeFailure} worded for a log line; never another exception (an unchecked one, or the Wire's guard
 * against a length a peer sent going uncapped), never longer than the deadline.
 */
public final class FuzzedPeer {

    private static final long DEADLINE_MILLIS = 2000;

    private FuzzedPeer() {
    }

    /** A reading of the peer's bytes, which may fail as a probe fails. */
    public interface Reading {
        void read() throws ProbeFailure;
    }

    /** The peer's bytes in pieces of 1 to 64 bytes, chosen from the input itself so that a seed stays as it is. */
    public static Wire wire(byte[] peer) {
        int piece = 1 + (Arrays.hashCode(peer) & 63);
        InputStream in = new ByteArrayInputStream(peer) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, piece));
            }
        };
        return new Wire(in, OutputStream.nullOutputStream(), System.nanoTime() + DEADLINE_MILLIS * 1_000_000,
                Clock.SYSTEM, new Timeout(DEADLINE_MILLIS, false), Wire.Peer.SERVER);
    }

    /** A failure worded for the log is a result; anything else thrown is a finding; so is overrunning the deadline. */
    public static void within(Reading reading) {
        long start = System.nanoTime();
        try {
            reading.read();
        } catch (ProbeFailure expected) {
            if (expected.getMessage() == null || expected.getMessage().isBlank()) {
                throw new AssertionError("a failure that says nothing");
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (millis > DEADLINE_MILLIS + 1000) {
            throw new AssertionError("the read took " + millis + " ms, past its " + DEADLINE_MILLIS + " ms deadline");
        }
    }
}
