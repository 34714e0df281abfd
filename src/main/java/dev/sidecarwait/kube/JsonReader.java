package dev.sidecarwait.kube;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RFC 8259 JSON as the API server sends it, read into maps, lists, strings, longs, doubles, booleans and
 * {@link #NULL}: strict (no comments, no trailing commas, no leading zeros, valid UTF-8 and escapes), nested at most
 * {@value #MAX_DEPTH} deep. The caller bounds the size: a document is read whole from bytes it has already capped.
 * Measured against jackson-core in docs/native.md: this is the smaller of the two in the binary.
 */
public final class JsonReader {

    /** JSON's null, which a map cannot hold as Java's. */
    public static final Object NULL = new Object();
    /** Deeper than any object the API server returns (a Job is about 10 deep). */
    public static final int MAX_DEPTH = 64;
    private final String text;
    private int at;
    private int depth;
    private JsonReader(String text) {
        this.text = text;
    }

    /** One JSON value, the whole of {@code bytes}; the exception's message says what is wrong and where. */
    public static Object parse(byte[] bytes, int length) throws Malformed {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("not UTF-8");
        }
        JsonReader reader = new JsonReader(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) {
            throw reader.malformed("more after the value");
        }
        return value;
    }

    /** Not JSON: says what and at which character. */
    public static final class Malformed extends Exception {
        Malformed(String reason) {
            super(reason, null, false, false);
        }
    }
    private Object value() throws Malformed {
        if (at >= text.length()) {
            throw malformed("ends early");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            default -> {
                for (Object word : new Object[] {Boolean.TRUE, Boolean.FALSE, NULL}) {
                    String spelled = word == NULL ? "null" : word.toString();
                    if (text.startsWith(spelled, at)) {
                        at += spelled.length();
                        yield word;
                    }
                }
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw malformed("unexpected character");
            }
        };
    }

    private Map<String, Object> object() throws Malformed {
        Map<String, Object> map = new LinkedHashMap<>();
        if (opened('}')) {
            return map;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw malformed("a member's name is not a string");
            }
            String name = string();
            space();
            if (next() != ':') {
                throw malformed("expected ':'");
            }
            space();
            map.put(name, value());
            space();
            char c = next();
            if (c == '}') {
                depth--;
                return map;
            }
            if (c != ',') {
                throw malformed("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() throws Malformed {
        List<Object> list = new ArrayList<>();
        if (opened(']')) {
            return list;
        }
        while (true) {
            space();
            list.add(value());
            space();
            char c = next();
            if (c == ']') {
                depth--;
                return list;
            }
            if (c != ',') {
                throw malformed("expected ',' or ']'");
            }
        }
    }

    /** Past an opening bracket, one level deeper; true when {@code close} follows at once (empty). */
    private boolean opened(char close) throws Malformed {
        if (++depth > MAX_DEPTH) {
            throw malformed("nested deeper than " + MAX_DEPTH);
        }
        at++;
        space();
        if (peek() != close) {
            return false;
        }
        at++;
        depth--;
        return true;
    }

    private String string() throws Malformed {
        at++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw malformed("a control character inside a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> out.append(hex4());
                default -> throw malformed("a bad escape");
            }
        }
    }

    private char hex4() throws Malformed {
        if (at + 4 > text.length()) {
            throw malformed("ends early");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(at++), 16);
            if (digit < 0) {
                throw malformed("a bad \\u escape");
            }
            value = value * 16 + digit;
        }
        return (char) value;
    }

    private Object number() throws Malformed {
        int start = at;
        skip("-");
        if (!skip("0")) {
            digits();
        }
        boolean fraction = skip(".");
        if (fraction) {
            digits();
        }
        boolean exponent = skip("eE");
        if (exponent) {
            skip("+-");
            digits();
        }
        String number = text.substring(start, at);
        if (!fraction && !exponent && number.length() <= 18) {
            return Long.parseLong(number);
        }
        return Double.parseDouble(number); // the API's counts are small: a huge or fractional one is only compared
    }

    /** Past one of {@code chars}, if it comes next. */
    private boolean skip(String chars) {
        if (at < text.length() && chars.indexOf(text.charAt(at)) >= 0) {
            at++;
            return true;
        }
        return false;
    }

    private void digits() throws Malformed {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw malformed("a bad number");
        }
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0'; // a NUL outside a string is no JSON either
    }
    private char next() throws Malformed {
        if (at >= text.length()) {
            throw malformed("ends early");
        }
        return text.charAt(at++);
    }


    private Malformed malformed(String what) {
        return new Malformed("not JSON: " + what + " at character " + at);
    }
}
