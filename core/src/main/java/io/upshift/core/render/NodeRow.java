package io.upshift.core.render;

import io.fabric8.kubernetes.api.model.Condition;
import io.upshift.api.update.NodeInsight;
import java.util.List;

/** A node insight read back into the flags and words of one line of a node table. */
record NodeRow(String name, String assessment, String phase, String version, String estimate, String message,
               boolean isUnavailable, boolean isDegraded, boolean isUpdating, boolean isUpdated) {

    static NodeRow of(NodeInsight n) {
        Condition updating = find(n.conditions(), NodeInsight.UPDATING);
        boolean isUpdating = updating != null && "True".equals(updating.getStatus());
        String reason = updating == null || updating.getReason() == null ? "" : updating.getReason();
        String phase = reason.equals("Completed") ? "Updated" : reason;
        boolean isUpdated = !isUpdating && reason.equals("Completed");
        boolean isUnavailable = is(n.conditions(), NodeInsight.AVAILABLE, "False");
        boolean isDegraded = is(n.conditions(), NodeInsight.DEGRADED, "True");
        String assessment;
        if (isDegraded) {
            assessment = "Degraded";
        } else if (isUnavailable && !isUpdating) {
            assessment = "Unavailable";
        } else {
            assessment = switch (phase) {
                case "Paused" -> "Excluded";
                case "Pending" -> "Outdated";
                case "Draining", "Updating", "Rebooting" -> "Progressing";
                case "Updated" -> "Completed";
                default -> "Unknown";
            };
        }
        String estimate;
        if (n.estToComplete() == null) {
            estimate = "?";
        } else {
            long d = GoDuration.parse(n.estToComplete());
            estimate = d == 0 ? "-" : "+" + GoDuration.shortFormat(d);
        }
        return new NodeRow(n.name(), assessment, phase, n.version() == null ? "" : n.version(), estimate,
                n.message() == null ? "" : n.message(), isUnavailable, isDegraded, isUpdating, isUpdated);
    }

    private static Condition find(List<Condition> conditions, String type) {
        return conditions == null ? null : conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static boolean is(List<Condition> conditions, String type, String status) {
        Condition c = find(conditions, type);
        return c != null && status.equals(c.getStatus());
    }
}
