package dev.sidecarwait.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.wire.ProbeFailure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HPACK against RFC 7541's own examples (appendix C), and what it must refuse. */
class HpackTest {

    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replaceAll("\\s", ""));
    }

    private static List<Hpack.Field> fields(String... nameValues) {
        List<Hpack.Field> fields = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            fields.add(new Hpack.Field(nameValues[i], nameValues[i + 1]));
        }
        return fields;
    }

    @Test
    void literalForms_C2() throws Exception {
        Hpack indexing = new Hpack();
        assertEquals(fields("custom-key", "custom-header"),
                indexing.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")));
        assertEquals(fields("custom-key", "custom-header"), indexing.dynamicTable());
        assertEquals(55, indexing.dynamicTableSize());

        Hpack plain = new Hpack();
        assertEquals(fields(":path", "/sample/path"), plain.decode(hex("040c 2f73 616d 706c 652f 7061 7468")));
        assertEquals(fields("password", "secret"), plain.decode(hex("1008 7061 7373 776f 7264 0673 6563 7265 74")));
        assertEquals(fields(":method", "GET"), plain.decode(hex("82")));
        assertEquals(List.of(), plain.dynamicTable(), "none of these is indexed");
    }

    /** C.3 and C.4: three requests on one connection, the second and third referring to the first's entries. */
    @Test
    void requestsWithAndWithoutHuffman_C3_C4() throws Exception {
        String[][] blocks = {
                {"8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"},
                {"8286 84be 5808 6e6f 2d63 6163 6865", "8286 84be 5886 a8eb 1064 9cbf"},
                {"8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
                        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"}};
        List<List<Hpack.Field>> expected = List.of(
                fields(":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com"),
                fields(":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com",
                        "cache-control", "no-cache"),
                fields(":method", "GET", ":scheme", "https", ":path", "/index.html", ":authority", "www.example.com",
                        "custom-key", "custom-value"));
        for (int huffman = 0; huffman < 2; huffman++) {
            Hpack decoder = new Hpack();
            for (int i = 0; i < 3; i++) {
                assertEquals(expected.get(i), decoder.decode(hex(blocks[i][huffman])), "C." + (3 + huffman) + "." + (i + 1));
            }
            assertEquals(fields("custom-key", "custom-value", "cache-control", "no-cache", ":authority", "www.example.com"),
                    decoder.dynamicTable());
            assertEquals(164, decoder.dynamicTableSize());
        }
    }

    /** C.5 and C.6: responses with a 256-octet table, so that entries are evicted. */
    @Test
    void responsesWithEvictionWithAndWithoutHuffman_C5_C6() throws Exception {
        String[][] blocks = {
                {"4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 "
                        + "3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
                        "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d "
                                + "29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3"},
                {"4803 3330 37c1 c0bf", "4883 640e ffc1 c0bf"},
                {"88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 "
                        + "7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 "
                        + "2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
                        "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d "
                                + "d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed "
                                + "4ee5 b106 3d50 07"}};
        String cookie = "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";
        List<List<Hpack.Field>> expected = List.of(
                fields(":status", "302", "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:21 GMT",
                        "location", "https://www.example.com"),
                fields(":status", "307", "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:21 GMT",
                        "location", "https://www.example.com"),
                fields(":status", "200", "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:22 GMT",
                        "location", "https://www.example.com", "content-encoding", "gzip", "set-cookie", cookie));
        int[] sizes = {222, 222, 215};
        for (int huffman = 0; huffman < 2; huffman++) {
            Hpack decoder = new Hpack(256);
            for (int i = 0; i < 3; i++) {
                assertEquals(expected.get(i), decoder.decode(hex(blocks[i][huffman])), "C." + (5 + huffman) + "." + (i + 1));
                assertEquals(sizes[i], decoder.dynamicTableSize(), "C." + (5 + huffman) + "." + (i + 1));
            }
            assertEquals(fields("set-cookie", cookie, "content-encoding", "gzip", "date", "Mon, 21 Oct 2013 20:13:22 GMT"),
                    decoder.dynamicTable());
        }
    }

    @Test
    void huffmanRoundTripsEveryByteAndRefusesBadPaddingAndEos() throws Exception {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        byte[] coded = HpackHuffman.encode(all);
        assertArrayEquals(all, HpackHuffman.decode(coded, 0, coded.length));
        assertArrayEquals(hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff"), HpackHuffman.encode("www.example.com".getBytes(StandardCharsets.US_ASCII)));
        // '0' is 00000 (5 bits): padded with 111 it is 0x07; padded with zeros, or with a whole byte of ones, it is not
        assertArrayEquals("0".getBytes(StandardCharsets.US_ASCII), HpackHuffman.decode(hex("07"), 0, 1));
        assertTrue(assertThrows(ProbeFailure.class, () -> HpackHuffman.decode(hex("00"), 0, 1)).getMessage().contains("padding"));
        assertTrue(assertThrows(ProbeFailure.class, () -> HpackHuffman.decode(hex("07ff"), 0, 2)).getMessage().contains("padding"));
        assertTrue(assertThrows(ProbeFailure.class, () -> HpackHuffman.decode(hex("ffff fffc"), 0, 4)).getMessage().contains("EOS"));
    }

    @Test
    void whatAPeerAnnouncesIsCheckedBeforeItIsUsed() {
        List<String> refusals = new ArrayList<>();
        for (String block : List.of(
                "be",                      // index 62: the dynamic table is empty
                "80",                      // index 0
                "3fe2 1f",                 // a table size update to 4097: more than this side allows
                "82 20",                   // a table size update after a field
                "7f ff ff ff ff 0f",       // an integer far beyond any size
                "40 7f 80 80 80 01",       // a name length of about 2^21 in a two-byte block
                "40 05 6162",              // a name shorter than announced
                "00")) {                   // a literal whose name runs past the end
            try {
                new Hpack().decode(hex(block));
                refusals.add(block + ": accepted");
            } catch (ProbeFailure expected) {
                assertTrue(expected.getMessage().startsWith("malformed HPACK"), block + ": " + expected.getMessage());
                refusals.add("refused");
            }
        }
        assertTrue(refusals.stream().allMatch("refused"::equals), refusals.toString());
    }

    @Test
    void theRequestsFieldsAreLiteralsWithoutIndexingNorHuffman() throws Exception {
        List<Hpack.Field> request = fields(":method", "POST", ":path", "/grpc.health.v1.Health/Check", "te", "trailers");
        byte[] block = Hpack.encode(request);
        assertEquals(0, block[0], "literal without indexing, new name");
        assertEquals(7, block[1], "':method', 7 octets, no Huffman bit");
        Hpack decoder = new Hpack();
        assertEquals(request, decoder.decode(block));
        assertEquals(List.of(), decoder.dynamicTable());
    }
}
