package io.upshift.pools.templates;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The part of Go's text/template that Upshift's templates may use: {@code {{.Field}}} (spaces
 * inside the braces allowed), replaced by the field's value as it is, no escaping, as text/template
 * prints a string. Anything else between braces (conditions, ranges, pipelines, functions, trim
 * markers) and unknown fields fail with the template's name, line and the action or field, rather
 * than render something the template's author did not mean (the fields are those of {@link
 * ControllerConfig#fields()}, listed in docs/node-pools.md).
 */
public final class Substitution {
    private static final Pattern FIELD = Pattern.compile("(\\.[A-Za-z][A-Za-z0-9_]*)+");

    private Substitution() {}

    /**
     * {@code text} with its fields replaced from {@code fields} (keys such as {@code .OSImageURL}).
     */
    public static String render(String template, String text, Map<String, String> fields) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        while (true) {
            int open = text.indexOf("{{", at);
            if (open < 0) break;
            out.append(text, at, open);
            int close = text.indexOf("}}", open + 2);
            if (close < 0)
                throw new TemplateException(
                        template, "line " + line(text, open) + ": \"{{\" is not closed");
            String action = text.substring(open + 2, close);
            String field = action.strip();
            if (!FIELD.matcher(field).matches()) {
                throw new TemplateException(
                        template,
                        "line "
                                + line(text, open)
                                + ": unsupported action {{"
                                + action
                                + "}}: only field substitutions such as {{.OSImageURL}} are"
                                + " supported");
            }
            String value = fields.get(field);
            if (value == null) {
                throw new TemplateException(
                        template, "line " + line(text, open) + ": unknown field " + field);
            }
            out.append(value);
            at = close + 2;
        }
        return out.append(text, at, text.length()).toString();
    }

    private static int line(String text, int offset) {
        int n = 1;
        for (int i = 0; i < offset; i++) if (text.charAt(i) == '\n') n++;
        return n;
    }
}
