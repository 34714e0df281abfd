package dev.sidecarwait.output;

import dev.sidecarwait.wire.PeerText;

/** The little JSON this tool writes: quoted strings. */
public final class Json {

    private Json() {
    }

    public static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (PeerText.isControl(c)) { // C1, the line separators and bidi controls too: escaped, not written
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
