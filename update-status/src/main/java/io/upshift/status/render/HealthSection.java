package io.upshift.status.render;

import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ResourceRef;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.Tabwriter;
import io.upshift.status.model.Times;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** "= Update Health =": the health insights, worst and newest first, as a table or in full. */
final class HealthSection {
    private static final int PAD = "Description: ".length();

    private HealthSection() {}

    /**
     * @param updatingFor how long the update has been running: the age of "Update is proceeding
     *     well"
     */
    static void write(
            StringBuilder out,
            List<HealthInsight> insights,
            long updatingFor,
            Instant now,
            boolean detailed) {
        List<HealthInsight> shown = new ArrayList<>();
        for (HealthInsight h : insights) {
            if (!isIncomplete(h)) {
                shown.add(h);
            }
        }
        // Newest first, then worst first; both sorts stable so equal insights keep the order they
        // were raised in.
        shown.sort(Comparator.comparing((HealthInsight h) -> startedAt(h)).reversed());
        shown.sort(Comparator.comparing((HealthInsight h) -> h.impact().level()).reversed());
        out.append("= Update Health =\n");
        if (shown.isEmpty()) {
            Tabwriter table = new Tabwriter().write("SINCE\tLEVEL\tIMPACT\tMESSAGE\n");
            table.write(
                    GoDuration.shortFormat(GoDuration.truncate(updatingFor, GoDuration.SECOND))
                            + "\tInfo\tNone\tUpdate is proceeding well\n");
            out.append(table.flush());
            return;
        }
        if (detailed) {
            writeDetailed(out, shown, now);
            return;
        }
        Tabwriter table = new Tabwriter().write("SINCE\tLEVEL\tIMPACT\tMESSAGE\n");
        for (HealthInsight h : shown) {
            table.write(since(h, now) + "\t")
                    .write(h.impact().level() + "\t")
                    .write(h.impact().type() + "\t")
                    .write(h.impact().summary() + "\n");
        }
        out.append(table.flush());
        if (shown.size() > 1 || shown.get(0).impact().level() != ImpactLevel.Info) {
            out.append(
                    "\n"
                            + "Run with --details=health for additional description and links to"
                            + " related online documentation\n");
        }
    }

    private static void writeDetailed(StringBuilder out, List<HealthInsight> shown, Instant now) {
        for (int i = 0; i < shown.size(); i++) {
            HealthInsight h = shown.get(i);
            out.append("Message: ").append(h.impact().summary()).append('\n');
            field(out, "Since:", since(h, now));
            field(out, "Level:", h.impact().level().name());
            field(out, "Impact:", h.impact().type());
            field(out, "Reference:", h.remediation().reference());
            List<ResourceRef> resources = h.scope() == null ? List.of() : h.scope().resources();
            if (!resources.isEmpty()) {
                // One entry per resource (repeated kinds repeat, as oc shows them), names grouped
                // by kind.
                Map<String, List<String>> names = new LinkedHashMap<>();
                List<String> kinds = new ArrayList<>();
                int pad = 0;
                for (ResourceRef r : resources) {
                    String kind =
                            r.resource()
                                    + (r.group() == null || r.group().isEmpty()
                                            ? ""
                                            : "." + r.group())
                                    + ": ";
                    pad = Math.max(pad, kind.length());
                    kinds.add(kind);
                    String name =
                            r.namespace() == null || r.namespace().isEmpty()
                                    ? r.name()
                                    : r.namespace() + "/" + r.name();
                    names.computeIfAbsent(kind, k -> new ArrayList<>()).add(name);
                }
                kinds.sort(null);
                out.append("  Resources:\n");
                for (String kind : kinds) {
                    List<String> n = names.get(kind);
                    n.sort(null);
                    out.append("    ")
                            .append(kind)
                            .append(" ".repeat(pad - kind.length()))
                            .append(String.join(", ", n))
                            .append('\n');
                }
            }
            String description =
                    h.impact().description().replace("\n", "\n" + " ".repeat(PAD + 2) + ", ");
            field(out, "Description:", description);
            if (i + 1 < shown.size()) {
                out.append('\n');
            }
        }
    }

    private static void field(StringBuilder out, String label, String value) {
        out.append("  ")
                .append(label)
                .append(" ".repeat(PAD - label.length()))
                .append(value)
                .append('\n');
    }

    private static boolean isIncomplete(HealthInsight h) {
        return h.impact() == null
                || isEmpty(h.impact().summary())
                || isEmpty(h.impact().description())
                || h.remediation() == null
                || isEmpty(h.remediation().reference());
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private static Instant startedAt(HealthInsight h) {
        Instant t = Times.parse(h.startedAt());
        return t == null ? Times.ZERO : t;
    }

    private static String since(HealthInsight h, Instant now) {
        Instant t = Times.parse(h.startedAt());
        if (t == null) {
            return "-";
        }
        return GoDuration.shortFormat(
                GoDuration.truncate(Times.between(t, now), GoDuration.SECOND));
    }
}
