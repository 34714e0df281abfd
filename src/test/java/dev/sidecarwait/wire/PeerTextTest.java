package dev.sidecarwait.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A peer's text is shown, never obeyed: control characters escaped, the whole cut to a length. */
class PeerTextTest {

    @Test
    void controlCharactersAreWrittenAsEscapes() {
        assertEquals("\\x1b[31mEVIL\\x1b[0m\\r\\n2026-01-01T00:00:00Z\\tinfo\\tready",
                PeerText.printable("\u001b[31mEVIL\u001b[0m\r\n2026-01-01T00:00:00Z\tinfo\tready"));
        assertEquals("a\\x00b\\x7f\\x85\\u2028\\u202e\\u2066", PeerText.printable("a\u0000b\u007f\u0085\u2028\u202e\u2066"));
    }

    @Test
    void plainTextIsLeftAsItIs() {
        String text = "HTTP/1.1 503 Service Unavailable: Bücher, 東京, \\x1b stays as typed";
        assertEquals(text, PeerText.printable(text));
    }

    @Test
    void shownTextIsCutAtItsLength() {
        assertEquals("abc...", PeerText.shown("abcdef", 3));
        assertEquals("abc", PeerText.shown("abc", 3));
        assertEquals("\\n...", PeerText.shown("\n\n\n\n", 2));
    }
}
