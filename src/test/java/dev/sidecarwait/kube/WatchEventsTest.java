package dev.sidecarwait.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.wire.FuzzedPeer;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A watch's chunked stream taken apart a byte at a time: events across chunks, extensions, trailers, bad framing. */
class WatchEventsTest {

    private static final String ADDED = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"migrate\",\"resourceVersion\":\"7\"}}}";
    private static final String BOOKMARK = "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}}}";

    private static List<String> events(String body, boolean chunked) throws ProbeFailure {
        Wire wire = FuzzedPeer.wire(body.getBytes(StandardCharsets.UTF_8));
        WatchEvents events = new WatchEvents(wire, new ChunkedBody(chunked), 1024);
        List<String> read = new ArrayList<>();
        for (byte[] event; (event = events.next(System.nanoTime() + 2_000_000_000L)) != null; ) {
            read.add(new String(event, StandardCharsets.UTF_8));
        }
        assertTrue(events.ended(), "the stream's end was not seen");
        return read;
    }

    private static String chunked(String... chunks) {
        StringBuilder body = new StringBuilder();
        for (String chunk : chunks) {
            body.append(Integer.toHexString(chunk.getBytes(StandardCharsets.UTF_8).length)).append("\r\n").append(chunk).append("\r\n");
        }
        return body.append("0\r\n\r\n").toString();
    }

    @Test
    void eventsAreLinesWhereverTheChunksCutThem() throws Exception {
        String stream = ADDED + "\n" + BOOKMARK + "\n";
        for (int cut = 1; cut < stream.length(); cut++) {
            assertEquals(List.of(ADDED, BOOKMARK), events(chunked(stream.substring(0, cut), stream.substring(cut)), true), "cut at " + cut);
        }
        assertEquals(List.of(ADDED), events("5;ext=1\r\n" + ADDED.substring(0, 5) + "\r\n" + Integer.toHexString(ADDED.length() - 4)
                + "\r\n" + ADDED.substring(5) + "\n\r\n0\r\nTrailer: x\r\n\r\n", true));
        assertEquals(List.of(ADDED, BOOKMARK), events(ADDED + "\n\n" + BOOKMARK + "\n", false));
    }

    @Test
    void badFramingAnOversizedEventAndACutEventAreFailures() {
        for (String bad : List.of("zz\r\n", "1\r\nab\r\n", "123456789\r\n", "\r\n", "3\r\nabc\rX")) {
            assertThrows(ProbeFailure.class, () -> events(bad, true), bad);
        }
        ProbeFailure huge = assertThrows(ProbeFailure.class, () -> events("x".repeat(2000) + "\n", false));
        assertTrue(huge.getMessage().contains("larger than 1 KiB"), huge.getMessage());
        ProbeFailure cut = assertThrows(ProbeFailure.class, () -> events(ADDED.substring(0, 20), false));
        assertTrue(cut.getMessage().contains("cut mid-event"), cut.getMessage());
    }

    @Test
    void nothingBeforeTheDeadlineIsNoEventAndNoEnd() throws Exception {
        Wire silent = new Wire(new java.io.InputStream() {
            @Override
            public int read() {
                throw new AssertionError("read past the deadline");
            }
        }, java.io.OutputStream.nullOutputStream(), System.nanoTime(), dev.sidecarwait.Clock.SYSTEM,
                new dev.sidecarwait.wire.Timeout(1, false), Wire.Peer.HTTP);
        WatchEvents events = new WatchEvents(silent, new ChunkedBody(true), 1024);
        assertNull(events.next(System.nanoTime() - 1));
        assertTrue(!events.ended());
    }
}
