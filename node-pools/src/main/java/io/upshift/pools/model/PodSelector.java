package io.upshift.pools.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A label selector in kubectl's text form ({@code app=db,tier!=web,cache,!canary,zone in (a,b), env
 * notin (dev)}), as an annotation holds it: every requirement must hold.
 */
public record PodSelector(String text, List<Requirement> requirements) {
    private static final Pattern KEY =
            Pattern.compile(
                    "([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern VALUE =
            Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

    /** One requirement: {@code op} is =, !=, in, notin, exists or !exists. */
    public record Requirement(String key, String op, Set<String> values) {
        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (op) {
                case "=", "in" -> v != null && values.contains(v);
                case "!=", "notin" -> v == null || !values.contains(v);
                case "exists" -> v != null;
                default -> v == null; // !exists
            };
        }
    }

    /**
     * @throws IllegalArgumentException saying which part does not parse
     */
    public static PodSelector parse(String text) {
        List<Requirement> out = new ArrayList<>();
        for (String part : split(text.strip())) {
            String p = part.strip();
            if (p.isEmpty()) throw new IllegalArgumentException("an empty requirement");
            String[] set = p.split("\\s+(?=(in|notin)\\s*\\()", 2);
            if (set.length == 2) {
                String rest = set[1].strip();
                String op = rest.startsWith("notin") ? "notin" : "in";
                String list = rest.substring(op.length()).strip();
                if (!list.startsWith("(") || !list.endsWith(")"))
                    throw new IllegalArgumentException("\"" + p + "\": values go in parentheses");
                List<String> values = new ArrayList<>();
                for (String v : list.substring(1, list.length() - 1).split(","))
                    values.add(value(p, v.strip()));
                out.add(new Requirement(key(p, set[0].strip()), op, Set.copyOf(values)));
            } else if (p.contains("!=")) {
                String[] kv = p.split("!=", 2);
                out.add(
                        new Requirement(
                                key(p, kv[0].strip()), "!=", Set.of(value(p, kv[1].strip()))));
            } else if (p.contains("=")) {
                String[] kv = p.split("==?", 2);
                out.add(
                        new Requirement(
                                key(p, kv[0].strip()), "=", Set.of(value(p, kv[1].strip()))));
            } else if (p.startsWith("!")) {
                out.add(new Requirement(key(p, p.substring(1).strip()), "!exists", Set.of()));
            } else {
                out.add(new Requirement(key(p, p), "exists", Set.of()));
            }
        }
        return new PodSelector(text.strip(), List.copyOf(out));
    }

    public boolean matches(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        return requirements.stream().allMatch(r -> r.matches(l));
    }

    /** Split at commas outside parentheses. */
    private static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0, from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0) {
                parts.add(text.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(text.substring(from));
        return parts;
    }

    private static String key(String part, String key) {
        if (!KEY.matcher(key).matches())
            throw new IllegalArgumentException(
                    "\"" + part + "\": \"" + key + "\" is not a label key");
        return key;
    }

    private static String value(String part, String value) {
        if (!VALUE.matcher(value).matches() || value.length() > 63)
            throw new IllegalArgumentException(
                    "\"" + part + "\": \"" + value + "\" is not a label value");
        return value;
    }
}
