package com.oracle.svm.hosted.image;

import com.oracle.svm.core.hub.DynamicHub;
import com.oracle.svm.core.image.ImageHeapObject;
import com.oracle.svm.hosted.meta.HostedField;
import java.lang.reflect.Member;
import java.util.Map;

/**
 * A name for each object of the image heap that holds from build to build, for the heap's order
 * (native/builder/ChunkedImageHeapPartition.java, native/heap-order.txt). The builder knows an object by its place, which
 * every build moves; this names it by what it is and why the heap holds it: its type and, where its content tells it
 * from others, that content (a string's text, a hub's class, a member's class and name, an enum constant, a number, a
 * map entry's key when it is one of those); else, after its type (and an array's length), the same for the objects
 * that brought it in, up to one whose content names it, at most four, else to the root they came from (a static
 * field, code's constants). Objects may share a name: they are placed together, which only costs memory, never
 * behaviour. In the builder's package, to read why the heap holds an object.
 */
public final class HeapObjectNames {

    private static final int ANCESTORS = 4;
    private static final int TEXT = 48;

    private HeapObjectNames() {
    }

    public static String of(ImageHeapObject object) {
        if (!(object instanceof NativeImageHeap.ObjectInfo info)) {
            return object.getObjectClass().getName();
        }
        StringBuilder name = new StringBuilder();
        Object reason = info;
        for (int i = 0; i <= ANCESTORS && reason instanceof NativeImageHeap.ObjectInfo holder; i++) {
            String known = known(holder);
            name.append(i == 0 ? "" : " < ").append(holder.getObjectClass().getName());
            if (known != null) {
                return name.append(' ').append(known).toString();
            }
            name.append(length(holder));
            reason = holder.getMainReason();
        }
        while (reason instanceof NativeImageHeap.ObjectInfo holder) {
            reason = holder.getMainReason();
        }
        return name.append(" < ").append(root(reason)).toString();
    }

    /**
     * What tells this object from others of its type, in its own content: a string's text, a hub's class, a member's
     * class and name, an enum constant's, a number's value, a map entry's key when that is one of those; else null.
     */
    private static String known(NativeImageHeap.ObjectInfo info) {
        Object object = hostObject(info);
        if (object instanceof Map.Entry<?, ?> entry) {
            Object key = entry.getKey();
            return key instanceof String || key instanceof Enum<?> || key instanceof Class<?> || key instanceof DynamicHub
                    ? "key " + ownName(key) : null;
        }
        return ownName(object);
    }

    private static String ownName(Object object) {
        if (object instanceof String text) {
            return "\"" + printable(text) + "\"";
        } else if (object instanceof DynamicHub hub) {
            return hub.getName();
        } else if (object instanceof Class<?> type) {
            return type.getName();
        } else if (object instanceof Member member) {
            return member.getDeclaringClass().getName() + "." + member.getName();
        } else if (object instanceof Enum<?> constant) {
            return constant.getDeclaringClass().getName() + "." + constant.name();
        } else if (object instanceof Number || object instanceof Boolean || object instanceof Character) {
            return printable(String.valueOf(object));
        }
        return null;
    }

    /** An array's length in brackets, else nothing. */
    private static String length(NativeImageHeap.ObjectInfo info) {
        Object object = hostObject(info);
        if (object instanceof Object[] array) {
            return "[" + array.length + "]";
        } else if (object instanceof byte[] array) {
            return "[" + array.length + "]";
        } else if (object instanceof int[] array) {
            return "[" + array.length + "]";
        } else if (object instanceof char[] array) {
            return "[" + array.length + "]";
        } else if (object instanceof long[] array) {
            return "[" + array.length + "]";
        }
        return "";
    }

    private static Object hostObject(NativeImageHeap.ObjectInfo info) {
        try {
            return info.getObject();
        } catch (RuntimeException simulated) { // an object the builder made up, with no host object behind it
            return null;
        }
    }

    private static String root(Object reason) {
        if (reason instanceof HostedField field) {
            return field.format("%H.%n");
        } else if (reason instanceof String text) {
            return printable(text);
        }
        return reason == null ? "none" : String.valueOf(reason);
    }

    /** The text on one line, cut at TEXT characters: printable ASCII as it is, anything else as \\uXXXX. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(text.length(), TEXT); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return text.length() > TEXT ? out.append("...").toString() : out.toString();
    }
}
