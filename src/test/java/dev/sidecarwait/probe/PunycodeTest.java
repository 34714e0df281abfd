package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.IDN;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Punycode against RFC 3492's own samples and, for many random names, the JDK's IDNA (java.net.IDN) as the oracle. */
class PunycodeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bücher.example | xn--bcher-kva.example",
            "BÜCHER.example | xn--bcher-kva.example",
            "他们为什么不说中文 | xn--ihqwcrb4cv8a8dqg056pqjye", // RFC 3492 7.1 (B)
            "他們爲什麽不說中文 | xn--ihqwctvzc91f659drss3x8bo0yb", // (C)
            "למההםפשוטלאמדבריםעברית | xn--4dbcagdahymbxekheh6e0a7fei0b", // (E)
            "なぜみんな日本語を話してくれないのか | xn--n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa", // (G)
            "почемужеонинеговорятпорусски | xn--b1abfaaepdrnnbgefbadotcwatmq2g4l", // (I), lower case
            "café。example | xn--caf-dma.example",
            "my_service.bücher | my_service.xn--bcher-kva"})
    void encodesAsIdnaToAsciiDoes(String host, String ascii) {
        assertEquals(ascii, Punycode.toAscii(host));
    }

    @Test
    void agreesWithTheJdksIdnaOnRandomNamesItMapsToThemselves() {
        Random random = new Random(56);
        int[][] ranges = {{0xe0, 0xff}, {0x3b1, 0x3c9}, {0x430, 0x44f}, {0x5d0, 0x5ea}, {0x4e00, 0x9fff}, {'a', 'z'}, {'0', '9'}};
        int compared = 0;
        for (int i = 0; i < 5000; i++) {
            StringBuilder label = new StringBuilder();
            for (int n = 1 + random.nextInt(12); n > 0; n--) {
                int[] range = ranges[random.nextInt(ranges.length)];
                int point = range[0] + random.nextInt(range[1] - range[0] + 1);
                label.appendCodePoint(Character.isLetterOrDigit(point) ? point : 'x');
            }
            String name = label.toString();
            String expected;
            try {
                expected = IDN.toASCII(name);
            } catch (IllegalArgumentException refused) {
                continue;
            }
            if (!IDN.toUnicode(expected).equals(name) || name.chars().allMatch(c -> c < 0x80) || expected.length() > 63) {
                continue; // nameprep changed it (ß, final sigma...): UTS #46 and IDNA 2003 differ there anyway
            }
            assertEquals(expected, Punycode.toAscii(name), name);
            compared++;
        }
        assertTrue(compared > 1500, "compared " + compared);
    }

    @Test
    void refusesWhatNoInternationalisedNameHolds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Punycode.toAscii("☃.net"));
        assertEquals("the host '☃.net' holds '☃' (U+2603), which no internationalised name holds", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Punycode.toAscii("\u0301a.example")); // a mark cannot start a label
    }
}
