package io.upshift.status.render;

import io.fabric8.kubernetes.api.model.Condition;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.RolloutHold;
import io.upshift.status.model.Times;
import java.time.Instant;

/**
 * Upshift's lines after "The cluster is not updating." while the update's maintenance window holds
 * an update asked for (the ClusterVersion insight's {@code Updating=False} with reason {@value
 * RolloutHold#WINDOW}, or {@value MaintenanceWindow#INVALID} for one that does not parse; oc, which
 * knows no such window, says nothing more): what waits for what, and, with Upshift's estimates,
 * when the update would end, the wait included, and what that rests on.
 */
final class HeldUpdateLines {
    private HeldUpdateLines() {}

    static String of(ClusterVersionInsight cv, Instant now, EstimateSource estimates) {
        Condition updating = Conditions.META.find(cv.conditions(), ClusterVersionInsight.UPDATING);
        if (updating == null
                || !"False".equals(updating.getStatus())
                || !(RolloutHold.WINDOW.equals(updating.getReason())
                        || MaintenanceWindow.INVALID.equals(updating.getReason()))) return "";
        String message = updating.getMessage() == null ? "" : updating.getMessage();
        int i = message.indexOf("; ");
        String held = i < 0 ? message : message.substring(i + 2);
        if (held.isEmpty()) return "";
        StringBuilder out =
                new StringBuilder()
                        .append(Character.toUpperCase(held.charAt(0)))
                        .append(held.substring(1))
                        .append(".\n");
        UpshiftEstimate own = cv.upshiftEstimate();
        if (estimates != EstimateSource.upshift || own == null) return out.toString();
        Instant end = Times.parse(own.completedAt());
        out.append("Est. Time Remaining: ")
                .append(
                        end == null
                                ? "unknown"
                                : GoDuration.shortFormat(
                                                GoDuration.round(
                                                        Math.max(0, Times.between(now, end)),
                                                        GoDuration.MINUTE))
                                        + " (the waits included), to "
                                        + Times.format(end))
                .append('\n')
                .append("Estimate Basis: ")
                .append(own.basis())
                .append('\n');
        return out.toString();
    }
}
