package dev.sidecarwait.process;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The signal the supervised command gets when the container is told to stop (SIGTERM, from the kubelet or the
 * runtime): --stop-signal, standing in for Kubernetes' lifecycle.stopSignal (KEP-4960) where that field does not reach
 * the runtime. Written as Kubernetes and kill -l write signals: with or without "SIG", in any case, or as a number;
 * Linux's numbers, the same on x86-64 and arm64 (the kernel's asm-generic table), real-time ones by
 * {@link SignalNumbers}. KILL and STOP are refused: a process cannot catch either, so nothing stops gracefully on them.
 */
public record StopSignal(String name, int number) {

    /** Linux's signals 1 to 31, in order of their numbers. */
    private static final List<String> STANDARD = List.of("HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
            "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN",
            "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS");

    /** Other names Kubernetes' stopSignal and kill -l accept for the same numbers. */
    private static final Map<String, String> ALIASES = Map.of("IOT", "ABRT", "CLD", "CHLD", "POLL", "IO");

    public static final StopSignal TERM = new StopSignal("TERM", 15);

    /** {@code text} as a signal; an IllegalArgumentException says why it is none, or one nothing can stop on. */
    public static StopSignal parse(String text) {
        String word = text.trim().toUpperCase(Locale.ROOT);
        StopSignal signal = word.matches("\\d{1,3}") ? byNumber(Integer.parseInt(word)) : byName(word);
        if (signal == null) {
            throw new IllegalArgumentException("'" + text + "' is not a signal (a name as kill -l writes it, such as "
                    + "QUIT, SIGWINCH or RTMIN+3, or a number from 1 to 31 or 34 to 64)");
        }
        if (signal.name.equals("KILL") || signal.name.equals("STOP")) {
            throw new IllegalArgumentException("'" + text + "' cannot be caught, so the command cannot stop gracefully "
                    + "on it; give the signal it stops gracefully on (nginx: QUIT, Apache httpd: WINCH)");
        }
        return signal;
    }

    private static StopSignal byName(String word) {
        String name = word.startsWith("SIG") ? word.substring(3) : word;
        name = ALIASES.getOrDefault(name, name);
        int index = STANDARD.indexOf(name);
        if (index >= 0) {
            return new StopSignal(name, index + 1);
        }
        int realTime = SignalNumbers.realTime().contains(name) ? SignalNumbers.of(name) : -1;
        return realTime < 0 ? null : new StopSignal(name, realTime);
    }

    private static StopSignal byNumber(int number) {
        if (number >= 1 && number <= STANDARD.size()) {
            return new StopSignal(STANDARD.get(number - 1), number);
        }
        List<String> realTime = SignalNumbers.realTime();
        int index = number - SignalNumbers.of(realTime.get(0));
        return index >= 0 && index < realTime.size() ? new StopSignal(realTime.get(index), number) : null;
    }

    @Override
    public String toString() {
        return "SIG" + name;
    }
}
