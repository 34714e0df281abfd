package dev.sidecarwait.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** RFC 8259 as the API server writes it, and what it forbids (the "n_" cases of JSONTestSuite's kind). */
class JsonReaderTest {

    private static Object parse(String json) throws JsonReader.Malformed {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return JsonReader.parse(bytes, bytes.length);
    }

    @Test
    void readsAnApiServersListIntoMapsListsAndScalars() throws Exception {
        Object list = parse(" {\"kind\":\"JobList\",\"metadata\":{\"resourceVersion\":\"4711\"},\"items\":[{\"metadata\":"
                + "{\"name\":\"migrate\",\"generation\":2},\"status\":{\"succeeded\":1,\"ready\":true,\"ratio\":0.5e1,"
                + "\"none\":null,\"text\":\"caf\\u00e9 \\\"x\\\"\\n\\/\"}}]} \n");
        JsonFields fields = JsonFields.of(list);
        assertEquals("4711", fields.at("metadata", "resourceVersion").text());
        JsonFields job = fields.at("items").items().get(0);
        assertEquals(2, job.at("metadata", "generation").number(0));
        assertEquals(1, job.at("status", "succeeded").number(0));
        assertTrue(job.at("status", "ready").isTrue());
        assertEquals(5.0, job.at("status", "ratio").raw());
        assertSame(JsonReader.NULL, job.at("status", "none").raw());
        assertEquals("café \"x\"\n/", job.at("status", "text").text());
        assertEquals(-1, job.at("status", "missing", "deeper").number(-1));
        assertEquals(List.of(), job.at("status", "text").items());
        assertEquals(Map.of(), parse("{}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[-]", "[1.]", "[.5]", "[1e]",
        "[+1]", "[NaN]", "[Infinity]", "[tru]", "[nul]", "[\"a\tb\"]", "[\"\\x41\"]", "[\"\\u12\"]", "[\"abc]", "{} {}",
        "[1] x", "// c\n[]", "['a']", "[\"a\"\"b\"]", "{\"a\":}", "\u0000[]"})
    void refusesWhatRfc8259Forbids(String json) {
        JsonReader.Malformed refused = assertThrows(JsonReader.Malformed.class, () -> parse(json), json);
        assertTrue(refused.getMessage().startsWith("not JSON: "), refused.getMessage());
    }

    @Test
    void refusesBytesThatAreNotUtf8AndNestingPastItsLimit() throws Exception {
        byte[] latin1 = {'[', '"', (byte) 0xe9, '"', ']'};
        assertThrows(JsonReader.Malformed.class, () -> JsonReader.parse(latin1, latin1.length));
        String deep = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
        parse(deep);
        JsonReader.Malformed tooDeep = assertThrows(JsonReader.Malformed.class, () -> parse("[" + deep + "]"));
        assertTrue(tooDeep.getMessage().contains("nested deeper than 64"), tooDeep.getMessage());
    }

    @Test
    void aLargeOrLongNumberIsReadAsADouble() throws Exception {
        assertEquals(123456789012345678L, parse("123456789012345678"));
        assertEquals(1.2345678901234568E19, parse("12345678901234567890"));
        assertEquals(-0.0, parse("-0.0"));
        assertEquals(0L, parse("-0"));
    }
}
