package io.upshift.status.render;

import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.PoolInsight;
import io.upshift.base.gofmt.GoNumbers;
import io.upshift.base.gofmt.Tabwriter;
import java.time.Instant;
import java.util.List;

/** The worker pool summary table and the per-pool node tables. */
final class NodeTables {
    /**
     * Without --details=nodes, rows from this index on are summarised unless they need attention.
     */
    private static final int SHOWN_ROWS = 10;

    private NodeTables() {}

    static void writePools(
            StringBuilder out,
            List<StatusView.PoolView> pools,
            Instant now,
            EstimateSource source) {
        boolean upshift = source == EstimateSource.upshift;
        Tabwriter table =
                new Tabwriter()
                        .write(
                                "\nWORKER POOL\tASSESSMENT\tCOMPLETION\tSTATUS"
                                        + (upshift ? "\tEST\n" : "\n"));
        for (StatusView.PoolView view : pools) {
            PoolInsight p = view.pool();
            int total = p == null ? 0 : p.count("Total");
            table.write(view.name() + "\t");
            if (view.nodes().isEmpty()) {
                table.write("Empty\t\t" + total + " Total" + (upshift ? "\t-\n" : "\n"));
                continue;
            }
            int done = total - p.count("Outdated");
            StringBuilder status =
                    new StringBuilder()
                            .append(p.count("Available"))
                            .append(" Available, ")
                            .append(p.count("Progressing"))
                            .append(" Progressing, ")
                            .append(p.count("Draining"))
                            .append(" Draining");
            for (String kind : List.of("Excluded", "Degraded")) {
                if (p.count(kind) > 0) {
                    status.append(", ").append(p.count(kind)).append(' ').append(kind);
                }
            }
            table.write(p.assessment() + "\t")
                    .write(
                            GoNumbers.percent((double) done / total * 100.0)
                                    + "% ("
                                    + done
                                    + "/"
                                    + total
                                    + ")\t")
                    .write(
                            status
                                    + (upshift
                                            ? "\t"
                                                    + NodeRow.est(
                                                            p.count("Outdated") == 0,
                                                            p.upshiftEstimate(),
                                                            now)
                                                    + "\n"
                                            : "\n"));
        }
        out.append(table.flush());
    }

    static void writeNodes(
            StringBuilder out,
            StatusView.PoolView view,
            boolean controlPlane,
            boolean detailed,
            Instant now,
            EstimateSource source) {
        List<NodeInsight> nodes = view.nodes();
        if (nodes.isEmpty()) {
            return;
        }
        if (controlPlane) {
            if (view.pool() != null && view.pool().count("Outdated") == 0) {
                String version = nodes.get(0).version();
                out.append("\nAll control plane nodes successfully updated to ")
                        .append(version == null ? "" : version)
                        .append('\n');
                return;
            }
            out.append("\nControl Plane Nodes");
        } else {
            out.append("\nWorker Pool Nodes: ").append(view.name());
        }
        Tabwriter table =
                new Tabwriter().write("\nNAME\tASSESSMENT\tPHASE\tVERSION\tEST\tMESSAGE\n");
        int total = 0,
                completed = 0,
                available = 0,
                progressing = 0,
                outdated = 0,
                draining = 0,
                excluded = 0;
        for (int i = 0; i < nodes.size(); i++) {
            NodeRow row = NodeRow.of(nodes.get(i), now, source);
            boolean needsAttention = row.isDegraded() || (row.isUnavailable() && !row.isUpdating());
            if (!detailed && i >= SHOWN_ROWS && !needsAttention) {
                total++;
                if (row.isUpdated()) {
                    completed++;
                } else {
                    outdated++;
                }
                available += row.isUnavailable() ? 0 : 1;
                draining += row.phase().equals("Draining") ? 1 : 0;
                excluded += row.phase().equals("Paused") ? 1 : 0;
                progressing += row.assessment().equals("Progressing") ? 1 : 0;
                continue;
            }
            table.write(row.name() + "\t")
                    .write(row.assessment() + "\t")
                    .write(row.phase() + "\t")
                    .write((row.version().isEmpty() ? "?" : row.version()) + "\t")
                    .write(row.estimate() + "\t")
                    .write(row.message() + "\n");
        }
        out.append(table.flush());
        if (total > 0) {
            out.append(
                    String.format(
                                    "...%nOmitted additional %d Total, %d Completed, %d Available,"
                                        + " %d Progressing, %d Outdated, %d Draining, %d Excluded,"
                                        + " and 0 Degraded nodes.%nPass along --details=nodes to"
                                        + " see all information.%n",
                                    total,
                                    completed,
                                    available,
                                    progressing,
                                    outdated,
                                    draining,
                                    excluded)
                            .replace("\r\n", "\n"));
        }
    }
}
