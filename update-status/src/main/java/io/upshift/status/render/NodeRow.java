package io.upshift.status.render;

import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.status.model.NodeInsights;
import io.upshift.status.model.Times;
import java.time.Instant;

/** A node insight read back into the flags and words of one line of a node table. */
record NodeRow(
        String name,
        String assessment,
        String phase,
        String version,
        String estimate,
        String message,
        boolean isUnavailable,
        boolean isDegraded,
        boolean isUpdating,
        boolean isUpdated) {

    static NodeRow of(NodeInsight n, Instant now, EstimateSource source) {
        boolean isUpdating = Conditions.META.isTrue(n.conditions(), NodeInsight.UPDATING);
        String phase = NodeInsights.phase(n);
        boolean isUpdated =
                !isUpdating
                        && Conditions.META
                                .reason(n.conditions(), NodeInsight.UPDATING)
                                .equals("Completed");
        boolean isUnavailable = Conditions.META.isFalse(n.conditions(), NodeInsight.AVAILABLE);
        boolean isDegraded = Conditions.META.isTrue(n.conditions(), NodeInsight.DEGRADED);
        String assessment = NodeInsights.assessment(n);
        String estimate;
        if (source == EstimateSource.upshift) {
            estimate = est(isUpdated, n.upshiftEstimate(), now);
        } else if (n.estToComplete() == null) {
            estimate = "?";
        } else {
            long d = GoDuration.parse(n.estToComplete());
            estimate = d == 0 ? "-" : "+" + GoDuration.shortFormat(d);
        }
        return new NodeRow(
                n.name(),
                assessment,
                phase,
                n.version() == null ? "" : n.version(),
                estimate,
                n.message() == null ? "" : n.message(),
                isUnavailable,
                isDegraded,
                isUpdating,
                isUpdated);
    }

    /**
     * An EST cell from Upshift's estimate: "-" when done (by the estimate, or by oc's reading when
     * there is none), "+" and the time left, "?" when it cannot be told.
     */
    static String est(boolean done, UpshiftEstimate e, Instant now) {
        if (e == null) {
            return done ? "-" : "?";
        }
        Instant at = Times.parse(e.completedAt());
        if (e.updated()) {
            return "-";
        }
        if (at == null) {
            return "?";
        }
        String left = ControlPlaneSection.remaining(Math.max(0, Times.between(now, at)));
        return left.equals("now") ? left : "+" + left;
    }
}
