package dev.sidecarwait.probe;

/** A URL's parameters, as the clients whose URLs are pasted here read them: the last of a repeated name wins. */
final class UrlQuery {

    private UrlQuery() {
    }

    /** The value of {@code name} in a raw query, percent-decoded; "" when it has none, null when absent. */
    static String value(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        String found = null;
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            String key = UrlParts.decoded(equals < 0 ? pair : pair.substring(0, equals));
            if (key.equals(name)) {
                found = equals < 0 ? "" : UrlParts.decoded(pair.substring(equals + 1));
            }
        }
        return found;
    }

    /** The names of a raw query's parameters, percent-decoded, in order. */
    static java.util.List<String> names(String rawQuery) {
        return rawQuery == null || rawQuery.isEmpty() ? java.util.List.of() : java.util.Arrays.stream(rawQuery.split("&"))
                .map(pair -> UrlParts.decoded(pair.indexOf('=') < 0 ? pair : pair.substring(0, pair.indexOf('=')))).toList();
    }
}
