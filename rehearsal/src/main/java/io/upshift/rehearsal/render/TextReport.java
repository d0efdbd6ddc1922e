package io.upshift.rehearsal.render;

import static io.upshift.base.gofmt.GoStrings.indentLines;

import io.upshift.base.gofmt.Tabwriter;
import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.model.Span;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.model.Timeline;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A rehearsal as text, in the manner of {@code oc adm upgrade}: a header, then what would refuse
 * the update, what would stall it and what is worth knowing, each as {@code Reason:} and {@code
 * Message:} lines in the words of whoever would say it, then the predicted timeline as tables.
 */
public final class TextReport {
    private TextReport() {}

    public static String render(Rehearsal r) {
        StringBuilder out = new StringBuilder();
        Target t = r.target();
        out.append("Rehearsal of the update from ")
                .append(r.currentVersion().isEmpty() ? "(unknown)" : r.currentVersion())
                .append(" to ")
                .append(t.version().isEmpty() ? "(unknown version)" : t.version())
                .append(", read from ")
                .append(r.source())
                .append(" at ")
                .append(r.at())
                .append("\n\n");
        out.append("Target: ").append(t.image()).append("\n  ").append(t.found()).append('\n');
        out.append("Signature: ")
                .append(signature(t.verification()))
                .append("\nRun-levels: ")
                .append(t.levels().size())
                .append(", from ")
                .append(t.levelsFrom())
                .append("\n");

        section(out, "Would refuse the update", r.of(Blocker.Kind.REFUSES));
        section(out, "Would stall the update", r.of(Blocker.Kind.STALLS));
        section(out, "Would hold the update now", r.of(Blocker.Kind.HOLDS));
        section(out, "Worth knowing", r.of(Blocker.Kind.WARNS));
        if (!r.blocked()) out.append("\nNothing found that would refuse or stall this update.\n");

        out.append("\n= Predicted timeline =\n");
        Rehearsal.Simulation s = r.simulation();
        if (s != null && s.ran()) out.append("Simulated: ").append(s.how()).append('\n');
        else if (s != null) out.append("Not simulated: ").append(s.how()).append('\n');
        out.append("Run-levels: ")
                .append(r.durations().runLevelBasis())
                .append("\nNodes: ")
                .append(r.durations().nodeBasis())
                .append("\n\n");
        timeline(out, r.timeline());
        if (!r.lacking().isEmpty()) {
            out.append("\nThe rehearsal went without:\n");
            r.lacking().forEach(l -> out.append("* ").append(l).append('\n'));
        }
        return out.toString();
    }

    private static String signature(Target.Verification v) {
        return switch (v.outcome()) {
            case VERIFIED -> "verified, " + v.detail();
            case FAILED -> "does not verify: " + v.detail();
            case NOT_CHECKED -> "not checked: " + v.detail();
        };
    }

    private static void section(StringBuilder out, String title, List<Blocker> blockers) {
        if (blockers.isEmpty()) return;
        out.append("\n= ").append(title).append(" =\n");
        for (Blocker b : blockers) {
            out.append('\n').append(b.source());
            String where = where(b.place());
            if (!where.isEmpty()) out.append(", ").append(where);
            out.append(":\n  Reason: ")
                    .append(b.reason())
                    .append("\n  Message: ")
                    .append(indentLines(b.message()))
                    .append('\n');
        }
    }

    static String where(Blocker.Place p) {
        if (!p.runLevel().isEmpty()) return "at run-level " + p.runLevel();
        if (!p.nodes().isEmpty())
            return "pool "
                    + p.pool()
                    + ", "
                    + (p.nodes().size() == 1 ? "node " : "nodes ")
                    + String.join(", ", p.nodes());
        if (!p.pool().isEmpty()) return "pool " + p.pool();
        return "";
    }

    private static void timeline(StringBuilder out, Timeline t) {
        Tabwriter w = new Tabwriter();
        w.write("RUN-LEVEL\tSTART\tEND\tTOOK\tOPERATORS\n");
        for (Timeline.Bar b : t.runLevels()) {
            w.write(
                    b.name()
                            + "\t"
                            + Span.of(b.start())
                            + "\t"
                            + (b.stalled() ? "stalls" : Span.of(b.end()))
                            + "\t"
                            + (b.stalled() ? "-" : Span.of(b.end().minus(b.start())))
                            + "\t"
                            + b.note()
                            + "\n");
        }
        out.append(w.flush());
        if (!t.pools().isEmpty()) {
            out.append('\n');
            w.write("POOL\tNODES\tAT ONCE\tSTART\tEND\tNOTE\n");
            for (Timeline.Pool p : t.pools()) {
                String stalled =
                        p.nodes().stream()
                                .filter(Timeline.Bar::stalled)
                                .map(Timeline.Bar::name)
                                .collect(Collectors.joining(", "));
                String note = p.note();
                if (!stalled.isEmpty())
                    note = (note.isEmpty() ? "" : note + "; ") + "stalls at " + stalled;
                w.write(
                        p.name()
                                + "\t"
                                + p.members()
                                + "\t"
                                + p.lanes()
                                + "\t"
                                + Span.of(p.start())
                                + "\t"
                                + (p.start() == null
                                        ? "-"
                                        : p.end() == null ? "stalls" : Span.of(p.end()))
                                + "\t"
                                + note
                                + "\n");
            }
            out.append(w.flush());
        }
        out.append('\n');
        if (!t.waits().isEmpty()) {
            out.append("Waits included:\n");
            t.waits().forEach(wait -> out.append("* ").append(wait).append('\n'));
        }
        out.append("Control plane: ")
                .append(t.controlPlaneEnd() == null ? "stalls" : Span.of(t.controlPlaneEnd()));
        t.lastNode()
                .ifPresent(
                        n ->
                                out.append(". Last node: ")
                                        .append(n.name())
                                        .append(" at ")
                                        .append(Span.of(n.end())));
        out.append(". Total: ")
                .append(
                        t.end() == null
                                ? "does not finish (stalls)"
                                : Span.of(t.end())
                                        + String.format(
                                                Locale.ROOT,
                                                " (%.0f s)",
                                                t.end().toMillis() / 1000.0))
                .append(".\n");
    }
}
