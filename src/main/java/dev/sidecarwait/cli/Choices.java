package dev.sidecarwait.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Settings that take one of a few words (--mesh, --on-timeout, --log-format, --output, --source): matched in any case,
 * and refused in one wording, lower case as the user types it, whether given as a flag or as a variable:
 * "'consul' is not istio, linkerd or envoy".
 */
final class Choices {

    private Choices() {
    }

    static <E extends Enum<E>> E parse(E[] choices, String value) {
        for (E choice : choices) {
            if (choice.name().equalsIgnoreCase(value.trim())) {
                return choice;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not " + words(choices));
    }

    /** "istio, linkerd or envoy". */
    static String words(Enum<?>[] choices) {
        List<String> words = new ArrayList<>();
        for (Enum<?> choice : choices) {
            words.add(choice.name().toLowerCase(Locale.ROOT));
        }
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }
}
