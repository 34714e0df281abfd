package dev.sidecarwait.kube;

import java.util.List;
import java.util.Map;

/**
 * A field of what {@link JsonReader} read, by its path: a field that is missing or of another type than asked is
 * absent (null, an empty list, or the default given), never an exception. What the API server leaves out is usual:
 * a Job's status has no "succeeded" until a pod has.
 */
public final class JsonFields {

    private final Object value;

    private JsonFields(Object value) {
        this.value = value;
    }

    public static JsonFields of(Object value) {
        return new JsonFields(value);
    }

    /** The member {@code name} of this object, then of that, and so on. */
    public JsonFields at(String... names) {
        Object current = value;
        for (String name : names) {
            current = current instanceof Map<?, ?> map ? map.get(name) : null;
        }
        return new JsonFields(current);
    }

    public boolean present() {
        return value != null && value != JsonReader.NULL;
    }

    /** A string, or null. */
    public String text() {
        return value instanceof String string ? string : null;
    }

    public String text(String otherwise) {
        return value instanceof String string ? string : otherwise;
    }

    /** A whole number, or {@code otherwise}. */
    public long number(long otherwise) {
        return value instanceof Long number ? number : otherwise;
    }

    public boolean isTrue() {
        return Boolean.TRUE.equals(value);
    }

    /** The items of an array (an empty list when this is none). */
    public List<JsonFields> items() {
        return value instanceof List<?> list ? list.stream().map(JsonFields::new).toList() : List.of();
    }

    /** The first item of an array whose member {@code name} is {@code text} (a condition by its type), else absent. */
    public JsonFields where(String name, String text) {
        return items().stream().filter(item -> text.equals(item.at(name).text())).findFirst().orElse(new JsonFields(null));
    }

    public Object raw() {
        return value;
    }
}
