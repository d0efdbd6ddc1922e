package io.upshift.releases.taskgraph;

import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.PayloadVerdicts;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Renders a task graph for people ({@link #text}) and for Graphviz ({@link #dot}). */
public final class GraphText {

    private GraphText() {}

    /**
     * One block per node: its id, the nodes it waits for, and its manifests in order with file and
     * object. {@code title} heads the output, e.g. "release 4.14.1".
     */
    public static String text(TaskGraph graph, String title) {
        StringBuilder s = new StringBuilder();
        long work = graph.nodes().stream().filter(n -> !n.isSpacer()).count();
        s.append(graph.mode())
                .append(" graph of ")
                .append(title)
                .append(": ")
                .append(graph.taskCount())
                .append(" manifests in ")
                .append(work)
                .append(" nodes (")
                .append(graph.nodes().size() - work)
                .append(" spacers), ")
                .append(graph.mode().defaultWorkers(graph))
                .append(" workers\n");
        for (TaskGraph.Node n : graph.nodes()) {
            s.append('\n')
                    .append("node ")
                    .append(n.id())
                    .append(n.in().isEmpty() ? "" : " after " + ids(n.in()))
                    .append(
                            n.isSpacer()
                                    ? " (spacer)"
                                    : ": "
                                            + n.tasks().size()
                                            + (n.tasks().size() == 1 ? " manifest" : " manifests"))
                    .append('\n');
            for (Task t : n.tasks()) {
                s.append("  ")
                        .append(String.format("%4d  ", t.index()))
                        .append(t.manifest().file())
                        .append("  ")
                        .append(t.manifest().id())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /**
     * The documents a graph leaves out, for people: those skipped when applying, then those
     * excluded when loading.
     */
    public static String leftOut(List<PayloadVerdicts.Row> verdicts) {
        StringBuilder s = new StringBuilder();
        for (PayloadVerdicts.Verdict v :
                List.of(PayloadVerdicts.Verdict.SKIPPED, PayloadVerdicts.Verdict.EXCLUDED)) {
            List<PayloadVerdicts.Row> rows =
                    verdicts.stream().filter(r -> r.verdict() == v).toList();
            if (rows.isEmpty()) continue;
            s.append('\n')
                    .append(
                            v == PayloadVerdicts.Verdict.SKIPPED
                                    ? "skipped when applying"
                                    : "excluded when loading")
                    .append(" (")
                    .append(rows.size())
                    .append(")\n");
            for (PayloadVerdicts.Row r : rows) {
                s.append("  ")
                        .append(r.manifest().file())
                        .append("  ")
                        .append(r.manifest().id())
                        .append(": ")
                        .append(r.reason())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /**
     * For tools, tab-separated: one {@code node} line per node in index order (its index, the nodes
     * it waits for, the file of each of its manifests in order, a file once per document), then a
     * {@code skipped} line per document loaded but not applied and an {@code excluded} line per
     * document not loaded (file, kind, namespace/name, reason).
     */
    public static String tsv(TaskGraph graph, List<PayloadVerdicts.Row> verdicts) {
        StringBuilder s = new StringBuilder();
        for (TaskGraph.Node n : graph.nodes()) {
            s.append("node\t")
                    .append(n.id())
                    .append("\tin=[")
                    .append(n.in().stream().map(String::valueOf).collect(Collectors.joining(",")))
                    .append("]\t")
                    .append(
                            n.tasks().stream()
                                    .map(t -> t.manifest().file())
                                    .collect(Collectors.joining(",")))
                    .append('\n');
        }
        for (PayloadVerdicts.Verdict v :
                List.of(PayloadVerdicts.Verdict.SKIPPED, PayloadVerdicts.Verdict.EXCLUDED)) {
            for (PayloadVerdicts.Row r : verdicts) {
                if (r.verdict() != v) continue;
                Manifest m = r.manifest();
                s.append(v.name().toLowerCase(Locale.ROOT))
                        .append('\t')
                        .append(m.file())
                        .append('\t')
                        .append(m.kind())
                        .append('\t')
                        .append(m.namespace())
                        .append('/')
                        .append(m.name())
                        .append('\t')
                        .append(r.reason())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /** Graphviz DOT: one box per node listing its manifests, one edge per ordering. */
    public static String dot(TaskGraph graph) {
        StringBuilder s = new StringBuilder("digraph tasks {\n  labelloc=t;\n  rankdir=TB;\n");
        for (TaskGraph.Node n : graph.nodes()) {
            String label =
                    n.isSpacer()
                            ? "no manifests"
                            : n.tasks().stream()
                                    .map(
                                            t ->
                                                    (t.manifest().file() + " " + t.manifest().id())
                                                            .replace("\"", ""))
                                    .collect(Collectors.joining("\\n"));
            s.append("  ")
                    .append(n.id())
                    .append(" [ label=\"")
                    .append(label)
                    .append("\" shape=\"box\" ];\n");
        }
        for (TaskGraph.Node n : graph.nodes()) {
            for (int to : n.out())
                s.append("  ").append(n.id()).append(" -> ").append(to).append(";\n");
        }
        return s.append("}\n").toString();
    }

    private static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
