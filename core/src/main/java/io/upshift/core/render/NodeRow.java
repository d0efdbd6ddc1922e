package io.upshift.core.render;

import io.upshift.api.update.NodeInsight;
import io.upshift.core.conditions.Conditions;

/** A node insight read back into the flags and words of one line of a node table. */
record NodeRow(String name, String assessment, String phase, String version, String estimate, String message,
               boolean isUnavailable, boolean isDegraded, boolean isUpdating, boolean isUpdated) {

    static NodeRow of(NodeInsight n) {
        boolean isUpdating = Conditions.META.isTrue(n.conditions(), NodeInsight.UPDATING);
        String reason = Conditions.META.reason(n.conditions(), NodeInsight.UPDATING);
        String phase = reason.equals("Completed") ? "Updated" : reason;
        boolean isUpdated = !isUpdating && reason.equals("Completed");
        boolean isUnavailable = Conditions.META.isFalse(n.conditions(), NodeInsight.AVAILABLE);
        boolean isDegraded = Conditions.META.isTrue(n.conditions(), NodeInsight.DEGRADED);
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
}
