package dev.sidecarwait.cli;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** Reads settings from environment variables, reporting a bad value as a usage error naming the variable. */
final class Env {

    private final Map<String, String> variables;

    Env(Map<String, String> variables) {
        this.variables = variables;
    }

    /** The trimmed value, or null when unset or blank. */
    String get(String name) {
        String value = variables.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    <T> T parse(String name, Function<String, T> parser) {
        String value = get(name);
        if (value == null) {
            return null;
        }
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw UsageError.invalid(name, e.getMessage());
        }
    }

    boolean isTrue(String name) {
        String value = get(name);
        if (value == null) {
            return false;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw UsageError.invalid(name, "'" + value + "' is not true or false");
        };
    }
}
