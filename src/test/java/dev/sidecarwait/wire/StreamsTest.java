package dev.sidecarwait.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import org.junit.jupiter.api.Test;

class StreamsTest {

    @Test
    void anEmptyRangeReadsNothingWithoutAskingTheCarrier() throws Exception {
        InputStream in = Streams.input((bytes, offset, length) -> {
            throw new AssertionError("asked for " + length + " bytes"); // a TLS engine asked for none would loop
        });
        assertEquals(0, in.read(new byte[4], 2, 0));
    }

    @Test
    void aRangeOutsideTheArrayIsRefusedBeforeTheCarrierSeesIt() {
        InputStream in = Streams.input((bytes, offset, length) -> {
            throw new AssertionError("reached the carrier"); // the native engine writes through a raw pointer
        });
        assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[4], 3, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[4], -1, 1));
    }
}
