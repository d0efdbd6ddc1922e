package io.upshift.rehearsal.render;

import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.model.Span;
import io.upshift.rehearsal.model.Timeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A rehearsal as one self-contained HTML page (inline style and SVG; no script, font or image from
 * anywhere): the findings as lists, and the timeline drawn, run-levels and then each pool's lanes
 * (maxUnavailable rows, each node a bar in the lane it takes) against time, a stalled bar drawn red
 * to the edge, each blocker marked where it strikes with a numbered flag that the list below the
 * drawing explains.
 */
public final class HtmlReport {
    /** The bars' colours: run-levels, nodes, stalls; a test looks for them in a screenshot. */
    public static final String RUN_LEVEL = "#2f6fd0", NODE = "#1f9d55", STALLED = "#d93025";

    static final int WIDTH = 1100, LABEL = 230, ROW = 18, GAP = 4, AXIS = 28;

    private HtmlReport() {}

    public static String render(Rehearsal r) {
        StringBuilder out = new StringBuilder();
        String title =
                "Rehearsal: "
                        + (r.currentVersion().isEmpty() ? "?" : r.currentVersion())
                        + " \u2192 "
                        + (r.target().version().isEmpty() ? "?" : r.target().version());
        out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>")
                .append(esc(title))
                .append("</title>\n<style>")
                .append(
                        "body{font:14px/1.4 sans-serif;margin:24px;color:#202124;max-width:"
                                + (WIDTH + 20)
                                + "px}h1{font-size:20px}h2{font-size:16px;margin-top:22px}ol,ul{padding-left:22px}li{margin:6px"
                                + " 0}.reason{font-weight:bold}.who{color:#5f6368}pre{white-space:pre-wrap;margin:2px"
                                + " 0;font:13px monospace}"
                                + ".refuses{color:#a50e0e}.stalls{color:#b06000}.basis{color:#5f6368}svg"
                                + " text{font:11px sans-serif}")
                .append("</style></head>\n<body>\n<h1>")
                .append(esc(title))
                .append("</h1>\n<p>Read from ")
                .append(esc(r.source()))
                .append(" at ")
                .append(esc(r.at()))
                .append(". Target ")
                .append(esc(r.target().image()))
                .append(", ")
                .append(esc(r.target().found()))
                .append(".</p>\n");

        List<Blocker> marked = new ArrayList<>();
        r.blockers().stream().filter(b -> b.kind() != Blocker.Kind.WARNS).forEach(marked::add);

        out.append("<h2>Predicted timeline</h2>\n");
        Timeline t = r.timeline();
        out.append("<p>")
                .append(
                        t.end() == null
                                ? "<span class=\"refuses\">The update does not finish: it stalls"
                                        + " (marked red).</span>"
                                : "Total " + esc(Span.of(t.end())) + ".")
                .append(" Control plane ")
                .append(esc(t.controlPlaneEnd() == null ? "stalls" : Span.of(t.controlPlaneEnd())))
                .append(
                        t.lastNode()
                                .map(
                                        n ->
                                                "; last node "
                                                        + esc(n.name())
                                                        + " at "
                                                        + esc(Span.of(n.end())))
                                .orElse(""))
                .append(".</p>\n");
        out.append(new Drawing(t, marked).svg());
        Rehearsal.Simulation s = r.simulation();
        out.append("<p class=\"basis\">")
                .append(s != null && s.ran() ? "Simulated: " : "Not simulated: ")
                .append(esc(s == null ? "" : s.how()))
                .append("<br>Run-levels: ")
                .append(esc(r.durations().runLevelBasis()))
                .append("<br>Nodes: ")
                .append(esc(r.durations().nodeBasis()))
                .append("</p>\n");

        list(out, "Would refuse the update", r.of(Blocker.Kind.REFUSES), "refuses", marked);
        list(out, "Would stall the update", r.of(Blocker.Kind.STALLS), "stalls", marked);
        list(out, "Would hold the update now", r.of(Blocker.Kind.HOLDS), "", marked);
        list(out, "Worth knowing", r.of(Blocker.Kind.WARNS), "", marked);
        if (!r.blocked())
            out.append("<p>Nothing found that would refuse or stall this update.</p>\n");
        if (!r.lacking().isEmpty()) {
            out.append("<h2>The rehearsal went without</h2>\n<ul>");
            r.lacking().forEach(l -> out.append("<li>").append(esc(l)).append("</li>"));
            out.append("</ul>\n");
        }
        out.append("</body></html>\n");
        return out.toString();
    }

    private static void list(
            StringBuilder out,
            String title,
            List<Blocker> blockers,
            String cls,
            List<Blocker> marked) {
        if (blockers.isEmpty()) return;
        out.append("<h2 class=\"")
                .append(cls)
                .append("\">")
                .append(esc(title))
                .append("</h2>\n<ul>");
        for (Blocker b : blockers) {
            int n = marked.indexOf(b);
            out.append("<li id=\"blocker-").append(n + 1).append("\">");
            if (n >= 0) out.append("<b>[").append(n + 1).append("]</b> ");
            out.append("<span class=\"who\">").append(esc(b.source()));
            String where = TextReport.where(b.place());
            if (!where.isEmpty()) out.append(", ").append(esc(where));
            out.append(":</span> <span class=\"reason\">")
                    .append(esc(b.reason()))
                    .append("</span><pre>")
                    .append(esc(b.message()))
                    .append("</pre></li>\n");
        }
        out.append("</ul>\n");
    }

    static String esc(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** The SVG drawing: rows of bars against a time axis. */
    private static final class Drawing {
        private final Timeline t;
        private final List<Blocker> marked;
        private final double horizon;
        private final StringBuilder rows = new StringBuilder();
        private int y = AXIS;

        Drawing(Timeline t, List<Blocker> marked) {
            this.t = t;
            this.marked = marked;
            // stalled bars run past the last known moment: leave them room to show
            double h = t.horizon().toMillis() / 1000.0;
            this.horizon = Math.max(1, h * (hasStall() ? 1.25 : 1.05));
        }

        private boolean hasStall() {
            return t.end() == null;
        }

        String svg() {
            List<Integer> before = flags(null, null, null);
            if (!before.isEmpty()) {
                label("Before it starts");
                flag(x(0), before);
                y += ROW + GAP;
            }
            label("Control plane");
            y += ROW;
            for (Timeline.Bar b : t.runLevels()) {
                bar(b, RUN_LEVEL, b.name(), flags(b.name(), null, null));
                y += ROW;
            }
            for (Timeline.Pool p : t.pools()) {
                y += GAP;
                label(
                        "Pool "
                                + p.name()
                                + " ("
                                + p.members()
                                + " nodes, "
                                + p.lanes()
                                + " at once)");
                flag(
                        x(p.start() == null ? 0 : p.start().toMillis() / 1000.0),
                        flags(null, p.name(), null));
                y += ROW;
                if (p.start() == null) {
                    text(LABEL + 4, y + 13, p.note(), "#5f6368");
                    y += ROW;
                    continue;
                }
                List<List<Timeline.Bar>> lanes = lanes(p);
                for (int i = 0; i < lanes.size(); i++) {
                    text(8, y + 13, "  lane " + (i + 1), "#5f6368");
                    for (Timeline.Bar b : lanes.get(i))
                        bar(b, NODE, b.name(), flags(null, p.name(), b.name()));
                    y += ROW;
                }
                if (lanes.isEmpty()) {
                    text(
                            LABEL + 4,
                            y + 13,
                            p.note().isEmpty() ? "no node updates" : p.note(),
                            "#5f6368");
                    y += ROW;
                }
            }
            int height = y + 8;
            StringBuilder svg = new StringBuilder();
            svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                    .append(WIDTH)
                    .append("\" height=\"")
                    .append(height)
                    .append("\" viewBox=\"0 0 ")
                    .append(WIDTH)
                    .append(' ')
                    .append(height)
                    .append("\" role=\"img\" aria-label=\"predicted timeline\">\n");
            axis(svg, height);
            svg.append(rows);
            svg.append("</svg>\n");
            return svg.toString();
        }

        /** Node bars by the lane they take: a lane is free again once its last bar ended. */
        private List<List<Timeline.Bar>> lanes(Timeline.Pool p) {
            List<List<Timeline.Bar>> lanes = new ArrayList<>();
            List<Timeline.Bar> sorted =
                    p.nodes().stream().sorted(Comparator.comparing(Timeline.Bar::start)).toList();
            for (Timeline.Bar b : sorted) {
                List<Timeline.Bar> free = null;
                for (List<Timeline.Bar> lane : lanes) {
                    Timeline.Bar last = lane.get(lane.size() - 1);
                    if (last.end() != null && last.end().compareTo(b.start()) <= 0) {
                        free = lane;
                        break;
                    }
                }
                if (free == null) {
                    free = new ArrayList<>();
                    lanes.add(free);
                }
                free.add(b);
            }
            return lanes;
        }

        private void axis(StringBuilder svg, int height) {
            double step = niceStep(horizon / 8);
            for (double s = 0; s <= horizon + 1e-9; s += step) {
                double x = x(s);
                svg.append(
                        String.format(
                                Locale.ROOT,
                                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
                                        + " stroke=\"#e0e0e0\"/><text x=\"%.1f\" y=\"16\""
                                        + " text-anchor=\"middle\" fill=\"#5f6368\">%s</text>\n",
                                x,
                                AXIS - 6,
                                x,
                                height,
                                x,
                                esc(tick(Math.round(s * 1000)))));
            }
        }

        /** An axis label: "0", "45s", "30m", "1h30m". */
        private static String tick(long ms) {
            if (ms == 0) return "0";
            if (ms < 1000) return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
            long s = ms / 1000, h = s / 3600, m = s % 3600 / 60, sec = s % 60;
            return (h > 0 ? h + "h" : "") + (m > 0 ? m + "m" : "") + (sec > 0 ? sec + "s" : "");
        }

        private static double niceStep(double raw) {
            double[] steps = {
                0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400
            };
            for (double s : steps) if (s >= raw) return s;
            return 28800;
        }

        private double x(double seconds) {
            return LABEL + (WIDTH - LABEL - 10) * seconds / horizon;
        }

        private void label(String s) {
            rows.append(
                    String.format(
                            Locale.ROOT,
                            "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s</text>\n",
                            y + 13,
                            esc(s)));
        }

        private void text(int x, int baseline, String s, String colour) {
            rows.append(
                    String.format(
                            Locale.ROOT,
                            "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n",
                            x,
                            baseline,
                            colour,
                            esc(s)));
        }

        private void bar(Timeline.Bar b, String colour, String name, List<Integer> flags) {
            double start = b.start().toMillis() / 1000.0;
            double end = b.stalled() ? horizon : b.end().toMillis() / 1000.0;
            double x0 = x(start), x1 = Math.max(x0 + 3, x(end));
            String fill = b.stalled() ? STALLED : colour;
            if (colour.equals(RUN_LEVEL)) text(8, y + 13, name, "#202124");
            rows.append(
                    String.format(
                            Locale.ROOT,
                            "<rect class=\"bar%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                                    + " rx=\"2\" fill=\"%s\"><title>%s</title></rect>\n",
                            b.stalled() ? " stalled" : "",
                            x0,
                            y + 2,
                            x1 - x0,
                            ROW - 4,
                            fill,
                            esc(
                                    name
                                            + ": "
                                            + Span.of(b.start())
                                            + " \u2013 "
                                            + (b.stalled() ? "stalls" : Span.of(b.end()))
                                            + (b.note().isEmpty() ? "" : " (" + b.note() + ")"))));
            int labelAt = (int) x0 + 3 + 16 * flags.size();
            if (!colour.equals(RUN_LEVEL) && x1 - labelAt > 7 * name.length())
                text(labelAt, y + 13, name, "#ffffff");
            flag(x0, flags);
        }

        /** Numbered flags for the blockers at {@code x} on this row. */
        private void flag(double x, List<Integer> numbers) {
            double at = x;
            for (int n : numbers) {
                rows.append(
                        String.format(
                                Locale.ROOT,
                                "<g class=\"blocker\"><circle cx=\"%.1f\" cy=\"%d\" r=\"7\""
                                    + " fill=\"%s\" stroke=\"#ffffff\"/><text x=\"%.1f\" y=\"%d\""
                                    + " text-anchor=\"middle\" fill=\"#ffffff\""
                                    + " font-weight=\"bold\">%d</text><title>%s</title></g>\n",
                                at,
                                y + ROW / 2,
                                STALLED,
                                at,
                                y + ROW / 2 + 4,
                                n,
                                esc(marked.get(n - 1).reason())));
                at += 16;
            }
        }

        /**
         * The numbers of the blockers that strike here: at {@code runLevel}, on pool {@code pool}
         * as a whole (node null), or on node {@code node}.
         */
        private List<Integer> flags(String runLevel, String pool, String node) {
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < marked.size(); i++) {
                Blocker.Place p = marked.get(i).place();
                boolean here =
                        runLevel != null
                                ? runLevel.equals(p.runLevel())
                                : node != null
                                        ? pool.equals(p.pool()) && p.nodes().contains(node)
                                        : pool != null
                                                ? pool.equals(p.pool()) && p.nodes().isEmpty()
                                                : p.equals(Blocker.Place.NOWHERE);
                if (here) out.add(i + 1);
            }
            return out;
        }
    }
}
