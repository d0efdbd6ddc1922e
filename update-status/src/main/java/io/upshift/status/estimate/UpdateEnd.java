package io.upshift.status.estimate;

import io.fabric8.kubernetes.api.model.Condition;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.Insight;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.RolloutHold;
import java.time.Instant;
import java.util.Optional;

/**
 * When the whole update (control plane and every pool) ends by Upshift's estimate, read from an
 * UpdateStatus; for an update the update's maintenance window holds, when it would end, the wait
 * included.
 */
public final class UpdateEnd {
    private UpdateEnd() {}

    /**
     * The latest estimated end of the control plane (while it updates) and of each pool with nodes
     * left (by Upshift's estimate, else by oc's count); empty when nothing is left or some part
     * that is not done has no estimate.
     */
    public static Optional<Instant> of(UpdateStatusStatus status) {
        Instant end = null;
        for (Insight i : status.insights()) {
            UpshiftEstimate e;
            if (i.clusterVersion() != null) {
                ClusterVersionInsight cv = i.clusterVersion();
                // done, unless a new update waits for the update's maintenance window
                if ("Completed".equals(cv.assessment()) && !held(cv)) {
                    continue;
                }
                e = cv.upshiftEstimate();
            } else if (i.machineConfigPool() != null) {
                PoolInsight p = i.machineConfigPool();
                if (p.upshiftEstimate() == null
                        ? p.count("Outdated") == 0
                        : p.upshiftEstimate().updated()) {
                    continue;
                }
                e = p.upshiftEstimate();
            } else {
                continue;
            }
            Instant at =
                    e == null || e.completedAt() == null ? null : Instant.parse(e.completedAt());
            if (at == null) {
                return Optional.empty();
            }
            end = end == null || at.isAfter(end) ? at : end;
        }
        return Optional.ofNullable(end);
    }

    private static boolean held(ClusterVersionInsight cv) {
        Condition updating = Conditions.META.find(cv.conditions(), ClusterVersionInsight.UPDATING);
        return updating != null
                && RolloutHold.WINDOW.equals(updating.getReason())
                && cv.upshiftEstimate() != null;
    }
}
