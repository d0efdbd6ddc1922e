package io.upshift.pools.metrics;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Prometheus text exposition format (version 0.0.4) of families and their rows: every family
 * gets its HELP and TYPE lines even without a row, so that a scraper sees the name before the first
 * event; the same labels twice keep the first row, as one series holds one value.
 */
public final class Exposition {
    private Exposition() {}

    public static String render(List<Family> families, List<Row> rows) {
        StringBuilder out = new StringBuilder();
        for (Family f : families) {
            out.append("# HELP ").append(f.name()).append(' ').append(escapeHelp(f.help()));
            out.append('\n');
            out.append("# TYPE ").append(f.name()).append(' ');
            out.append(f.type().name().toLowerCase(java.util.Locale.ROOT)).append('\n');
            Set<List<String>> seen = new LinkedHashSet<>();
            for (Row r : rows) {
                if (!r.family().equals(f) || !seen.add(r.labelValues())) continue;
                out.append(f.name());
                if (!f.labels().isEmpty()) {
                    out.append('{');
                    for (int i = 0; i < f.labels().size(); i++) {
                        if (i > 0) out.append(',');
                        out.append(f.labels().get(i)).append("=\"");
                        out.append(escapeLabel(r.labelValues().get(i))).append('"');
                    }
                    out.append('}');
                }
                out.append(' ').append(number(r.value())).append('\n');
            }
        }
        for (Row r : rows) {
            if (!families.contains(r.family()))
                throw new IllegalArgumentException(r.family().name() + " is not a listed family");
        }
        return out.toString();
    }

    static String number(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "+Inf" : "-Inf";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return Double.toString(v);
    }

    private static String escapeHelp(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    private static String escapeLabel(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
