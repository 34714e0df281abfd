package dev.sidecarwait.kube;

import dev.sidecarwait.wire.ProbeFailure;

/**
 * HTTP/1.1's chunked framing taken off a byte at a time, so that a watch's events can be read as they come and a
 * read cut short by an attempt's end loses nothing: each byte is data or framing, and the state is kept between
 * bytes. A body sent without chunks is all data.
 */
final class ChunkedBody {

    private enum State { SIZE, EXTENSION, SIZE_END, DATA, DATA_CR, DATA_LF, TRAILER_START, TRAILER, TRAILER_END, DONE }

    /** More hex digits than any chunk size needs. */
    private static final int MAX_SIZE_DIGITS = 8;

    private final boolean chunked;
    private State state = State.SIZE;
    private long left;
    private int digits;

    ChunkedBody(boolean chunked) {
        this.chunked = chunked;
    }

    /** Whether the last chunk and its trailer have come: the body is whole. */
    boolean done() {
        return state == State.DONE;
    }

    /** Takes the body's next byte as sent: true when it is data, false when it is framing. */
    boolean data(int b) throws ProbeFailure {
        if (!chunked) {
            return true;
        }
        switch (state) {
            case SIZE -> size(b);
            case EXTENSION -> state = b == '\r' ? State.SIZE_END : b == '\n' ? next() : State.EXTENSION;
            case SIZE_END -> state = b == '\n' ? next() : fail();
            case DATA -> {
                if (--left == 0) {
                    state = State.DATA_CR;
                }
                return true;
            }
            case DATA_CR -> state = b == '\r' ? State.DATA_LF : b == '\n' ? State.SIZE : fail();
            case DATA_LF -> state = b == '\n' ? State.SIZE : fail();
            case TRAILER_START -> state = b == '\r' ? State.TRAILER_END : b == '\n' ? State.DONE : State.TRAILER;
            case TRAILER -> state = b == '\n' ? State.TRAILER_START : State.TRAILER;
            case TRAILER_END -> state = b == '\n' ? State.DONE : fail();
            case DONE -> fail();
        }
        return false;
    }

    private void size(int b) throws ProbeFailure {
        int digit = Character.digit(b, 16);
        if (digit >= 0 && b < 0x80) {
            if (++digits > MAX_SIZE_DIGITS) {
                fail();
            }
            left = left * 16 + digit;
        } else if (digits > 0 && (b == ';' || b == ' ' || b == '\t')) {
            state = State.EXTENSION;
        } else if (digits > 0 && b == '\r') {
            state = State.SIZE_END;
        } else if (digits > 0 && b == '\n') {
            state = next();
        } else {
            fail();
        }
    }

    /** After a chunk's size line: its data, or the trailer after the last (empty) chunk. */
    private State next() {
        digits = 0;
        return left == 0 ? State.TRAILER_START : State.DATA;
    }

    private static State fail() throws ProbeFailure {
        throw new ProbeFailure("malformed chunked body from the API server");
    }
}
