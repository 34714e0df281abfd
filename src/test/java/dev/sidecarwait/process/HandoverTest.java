package dev.sidecarwait.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every branch of the choice between handing the process over to the command and supervising it. */
class HandoverTest {

    /** Stands for the native binary's replacer: the decision only asks what the process inherited. */
    static ProcessReplacer replacer(Inherited atStart) {
        return new ProcessReplacer() {
            @Override
            public Inherited atStart() {
                return atStart;
            }

            @Override
            public void setDispositions(ExecPlan plan) {
                throw new AssertionError("the decision never replaces anything");
            }

            @Override
            public int exec(ExecPlan plan) {
                throw new AssertionError("the decision never replaces anything");
            }

            @Override
            public java.util.List<String> self() {
                throw new AssertionError("the decision never starts anything");
            }
        };
    }

    private static final ProcessReplacer NATIVE = replacer(new Inherited(0, 0, Set.of(0, 1, 2), null));

    @Test
    void byDefaultTheNativeBinaryHandsOver() {
        Handover after = Handover.decide(null, "", false, NATIVE);
        assertTrue(after.handOver());
        assertEquals(Handover.Level.DEBUG, after.level());
        assertTrue(after.why().startsWith("Handing the process over to the command"), after.why());
    }

    @Test
    void askingForTheHandOverNamesTheChoice() {
        Handover after = Handover.decide(false, "SIDECAR_WAIT_SUPERVISE=false", false, NATIVE);
        assertTrue(after.handOver());
        assertTrue(after.why().endsWith("(SIDECAR_WAIT_SUPERVISE=false)"), after.why());
    }

    @Test
    void askingForSupervisionIsHonouredEverywhere() {
        for (ProcessReplacer runtime : new ProcessReplacer[] {NATIVE, null}) {
            Handover after = Handover.decide(true, "--supervise", false, runtime);
            assertFalse(after.handOver());
            assertEquals(Handover.Level.DEBUG, after.level());
            assertEquals("Supervising the command, as asked (--supervise)", after.why());
        }
    }

    @Test
    void aQuitUrlMeansSupervising() {
        Handover after = Handover.decide(null, "", true, NATIVE);
        assertFalse(after.handOver());
        assertEquals(Handover.Level.DEBUG, after.level());
        assertEquals("Supervising the command: the sidecar is told to quit once it has exited", after.why());
    }

    @Test
    void theJvmSupervisesSayingSoAtInfoLevelOrAsAWarningWhenTheHandOverWasAskedFor() {
        Handover quietly = Handover.decide(null, "", false, null);
        assertFalse(quietly.handOver());
        assertEquals(Handover.Level.INFO, quietly.level(), "a newcomer with the jar expects the hand-over the README describes");
        assertEquals("Supervising the command: a JVM cannot replace itself with the command (the native binary hands over)",
                quietly.why());

        Handover asked = Handover.decide(false, "--no-supervise", false, null);
        assertFalse(asked.handOver());
        assertEquals(Handover.Level.WARN, asked.level());
        assertEquals("--no-supervise: a JVM cannot replace itself with the command; supervising it instead (the native "
                + "binary hands over)", asked.why());
    }

    @Test
    void withoutKnowingWhatTheProcessInheritedItSupervises() {
        ProcessReplacer blind = replacer(Inherited.unknown("cannot read /proc/self: no such file"));
        Handover quietly = Handover.decide(null, "", false, blind);
        assertFalse(quietly.handOver());
        assertEquals(Handover.Level.INFO, quietly.level());
        assertTrue(quietly.why().contains("(cannot read /proc/self: no such file)"), quietly.why());
        assertEquals(Handover.Level.WARN, Handover.decide(false, "--no-supervise", false, blind).level());
    }
}
