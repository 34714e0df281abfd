package dev.sidecarwait.process;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the entrypoint reads of processes from /proc: the signal masks in status, the parent in stat (the postStart
 * guard), and cmdline (the command's own bytes). For any content, a value or a clean "unknown";
 * never an exception.
 */
class ProcSelfFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void statusMasks(byte[] input) {
        String status = new String(input, StandardCharsets.ISO_8859_1);
        for (String field : List.of("SigIgn", "SigBlk")) {
            try {
                Inherited.mask(status, field);
            } catch (IllegalArgumentException unreadable) {
                // Inherited.read turns this into "unknown", and the wrapper supervises instead
            }
        }
    }

    /** A stat line as the postStart guard reads each parent's: a parent PID, or an IOException, nothing else. */
    @FuzzTest(maxDuration = "15s")
    void parentOfStat(byte[] input) {
        try {
            ParentChain.parentPid(new String(input, StandardCharsets.US_ASCII));
        } catch (java.io.IOException notAStatLine) {
            // said in words
        }
    }

    @FuzzTest(maxDuration = "15s")
    void cmdline(byte[] input) {
        List<byte[]> entries = RawArguments.split(input);
        for (byte[] entry : entries) {
            RawArguments.decodesTo(entry, new String(entry, StandardCharsets.UTF_8));
        }
    }
}
