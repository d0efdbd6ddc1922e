package io.upshift.pools.model;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One alert a pool's health gate waits on, as written in its {@code upshift.io/health-gate-alerts}
 * annotation: an alert name ({@code KubeNodeNotReady}), label matchers in PromQL's form ({@code
 * {severity="critical"}}), or both ({@code KubePodCrashLooping{namespace=~"shop|billing"}}). It
 * matches while Prometheus holds such an alert firing, as kured's {@code --alert-filter-regexp}
 * gates its reboots; it is asked as a query of Prometheus's {@code ALERTS} series ({@link
 * #promql()}).
 *
 * @param text the selector as written
 * @param name the alert name, or "" for any
 * @param matchers the label matchers as written, each {@code label op "value"}
 */
public record AlertSelector(String text, String name, List<String> matchers) {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern MATCHER =
            Pattern.compile(
                    "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*");

    public AlertSelector {
        matchers = List.copyOf(matchers);
    }

    /**
     * @throws IllegalArgumentException saying what does not parse
     */
    public static AlertSelector parse(String text) {
        String s = text.strip();
        int brace = s.indexOf('{');
        String name = brace < 0 ? s : s.substring(0, brace).strip();
        if (!name.isEmpty() && !NAME.matcher(name).matches())
            throw new IllegalArgumentException("\"" + name + "\" is not an alert name");
        List<String> matchers = new ArrayList<>();
        if (brace >= 0) {
            if (!s.endsWith("}"))
                throw new IllegalArgumentException("\"" + s + "\": the matchers do not end with }");
            String inner = s.substring(brace + 1, s.length() - 1);
            Matcher m = MATCHER.matcher(inner);
            int at = 0;
            while (at < inner.length() && !inner.substring(at).isBlank()) {
                m.region(at, inner.length());
                if (!m.lookingAt())
                    throw new IllegalArgumentException(
                            "\""
                                    + inner.substring(at).strip()
                                    + "\" is not a label matcher"
                                    + " (label=\"value\", !=, =~ or !~)");
                if (List.of("alertstate", "__name__").contains(m.group(1)))
                    throw new IllegalArgumentException(
                            "label "
                                    + m.group(1)
                                    + " is the gate's own (it asks for firing alerts)");
                matchers.add(m.group(1) + m.group(2) + "\"" + m.group(3) + "\"");
                at = m.end();
                if (at < inner.length()) {
                    if (inner.charAt(at) != ',')
                        throw new IllegalArgumentException(
                                "\"" + inner + "\": matchers are separated by ,");
                    at++;
                }
            }
        }
        if (name.isEmpty() && matchers.isEmpty())
            throw new IllegalArgumentException("an alert selector names an alert or a label");
        return new AlertSelector(s, name, matchers);
    }

    /** The firing alerts it selects, as a PromQL query of the {@code ALERTS} series. */
    public String promql() {
        List<String> all = new ArrayList<>();
        all.add("alertstate=\"firing\"");
        if (!name.isEmpty()) all.add("alertname=\"" + name + "\"");
        all.addAll(matchers);
        return "ALERTS{" + String.join(",", all) + "}";
    }
}
