package dev.sidecarwait.process;

import java.util.ArrayList;
import java.util.List;

/**
 * Linux's numbers for the signals a Java runtime's own table of names lacks: STKFLT (the native image has no name for
 * it) and the real-time signals, named as Kubernetes' lifecycle.stopSignal, the container runtimes and kill -l name
 * them: RTMIN (34) to RTMIN+15 (49), RTMAX-14 (50) to RTMAX (64). The C library may keep some for itself (musl 32 to
 * 34, glibc 32 and 33); a handler for those is refused where it is installed.
 */
public final class SignalNumbers {

    private static final int STKFLT = 16;
    private static final int RTMIN = 34;
    private static final List<String> REAL_TIME = realTimeNames();

    private SignalNumbers() {
    }

    /** The number of {@code name} (without "SIG"), or -1 when it is none of these. */
    public static int of(String name) {
        if (name.equals("STKFLT")) {
            return STKFLT;
        }
        int index = REAL_TIME.indexOf(name);
        return index < 0 ? -1 : RTMIN + index;
    }

    /** The real-time signals, in order of their numbers. */
    public static List<String> realTime() {
        return REAL_TIME;
    }

    private static List<String> realTimeNames() {
        List<String> names = new ArrayList<>(List.of("RTMIN"));
        for (int n = 1; n <= 15; n++) {
            names.add("RTMIN+" + n);
        }
        for (int n = 14; n >= 1; n--) {
            names.add("RTMAX-" + n);
        }
        names.add("RTMAX");
        return List.copyOf(names);
    }
}
