package io.upshift.base.gofmt;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Go's {@code encoding/json} output, byte for byte: {@code json.MarshalIndent(v, "", indent)} of a
 * tree laid out as Go's encoder would see it. The caller builds the tree in Go's order (struct
 * fields in declaration order, map keys sorted, fields Go omits left out, {@code null} where Go
 * writes a nil map or pointer); this class writes it with Go's separators, its compact {@code {}}
 * and {@code []}, and its HTML-safe string escapes ({@code <}, {@code >}, {@code &}, U+2028 and
 * U+2029 written as backslash-u and four hex digits). No trailing newline, as MarshalIndent returns
 * none.
 */
public final class GoJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoJson() {}

    /** {@code json.MarshalIndent(node, "", indent)}. */
    public static String marshalIndent(JsonNode node, String indent) {
        StringBuilder out = new StringBuilder();
        write(out, node, indent, 0);
        return out.toString();
    }

    /** A string as Go's encoder writes it (HTML escaping on, the default). */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        appendString(out, s);
        return out.toString();
    }

    private static void write(StringBuilder out, JsonNode node, String indent, int depth) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isTextual()) {
            appendString(out, node.textValue());
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else if (node.isIntegralNumber()) {
            out.append(node.bigIntegerValue());
        } else if (node.isObject()) {
            if (node.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                newline(out, indent, depth + 1);
                appendString(out, f.getKey());
                out.append(": ");
                write(out, f.getValue(), indent, depth + 1);
                if (fields.hasNext()) out.append(',');
            }
            newline(out, indent, depth);
            out.append('}');
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                newline(out, indent, depth + 1);
                write(out, node.get(i), indent, depth + 1);
                if (i < node.size() - 1) out.append(',');
            }
            newline(out, indent, depth);
            out.append(']');
        } else {
            // floats and binary: Go formats these its own way, and nothing written here holds them
            throw new IllegalArgumentException("no Go encoding for a " + node.getNodeType());
        }
    }

    private static void newline(StringBuilder out, String indent, int depth) {
        out.append('\n');
        for (int i = 0; i < depth; i++) out.append(indent);
    }

    /** Go's appendString with escapeHTML (encoding/json, Go 1.22 and later). */
    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\', '"' -> out.append('\\').append(c);
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> unicode(out, c);
                default -> {
                    if (c < 0x20) {
                        unicode(out, c);
                    } else if (Character.isSurrogate(c)) {
                        // a lone surrogate is what Go sees as invalid UTF-8: the replacement char
                        if (Character.isHighSurrogate(c)
                                && i + 1 < s.length()
                                && Character.isLowSurrogate(s.charAt(i + 1))) {
                            out.append(c).append(s.charAt(++i));
                        } else {
                            out.append("\\ufffd");
                        }
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u")
                .append(HEX[(c >> 12) & 0xf])
                .append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }
}
