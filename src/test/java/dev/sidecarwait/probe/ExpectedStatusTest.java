package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExpectedStatusTest {

    @Test
    void defaultIsExactly200LikePilotAgent() {
        assertTrue(ExpectedStatus.parse("200").matches(200));
        assertFalse(ExpectedStatus.parse("200").matches(204));
        assertFalse(ExpectedStatus.parse("200").matches(503));
    }

    @Test
    void listsAndRanges() {
        ExpectedStatus kubernetesRule = ExpectedStatus.parse("200-399");
        assertTrue(kubernetesRule.matches(200));
        assertTrue(kubernetesRule.matches(302));
        assertTrue(kubernetesRule.matches(399));
        assertFalse(kubernetesRule.matches(400));
        assertFalse(kubernetesRule.matches(199));

        ExpectedStatus list = ExpectedStatus.parse("200, 204,300-301");
        assertTrue(list.matches(204));
        assertTrue(list.matches(301));
        assertFalse(list.matches(201));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "20", "2000", "abc", "600", "099", "300-200", "200,", "200-", "-200"})
    void refusesWhatIsNotAStatusRule(String text) {
        assertThrows(IllegalArgumentException.class, () -> ExpectedStatus.parse(text));
    }
}
