package io.upshift.clusterversion.metrics;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.clusterversion.model.History;
import io.upshift.status.estimate.ControlPlaneEstimate;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Upshift's {@code upshift_update_estimated_completion_timestamp_seconds}: while an update is under
 * way (the newest history entry Partial), when its control plane should be done, as the run-level
 * times the controller keeps on the ClusterVersion predicted it at the update's last progress (a
 * run-level starting or ending): {@link ControlPlaneEstimate} as {@code upshift status} computes
 * it, but as of that moment, so the row does not move while the update makes none (the status's
 * estimate, computed as of now, moves on once late). No row when there is no update or no estimate
 * yet. The alert UpdateSlowerThanEstimate compares it with now.
 */
public final class EstimateSample {
    private EstimateSample() {}

    /**
     * @param now the time of the scrape: an estimate is never made as of a later moment
     */
    public static Optional<Sample> of(ClusterVersion cv, Instant now) {
        if (cv == null || cv.getStatus() == null || cv.getStatus().getDesired() == null)
            return Optional.empty();
        List<UpdateHistory> history = cv.getStatus().getHistory();
        if (history == null
                || history.isEmpty()
                || !History.PARTIAL.equals(history.get(0).getState())) return Optional.empty();
        RunLevelTimes times = RunLevelTimes.of(cv);
        String image = cv.getStatus().getDesired().getImage();
        if (times == null || image == null || times.lastEvent() == null) return Optional.empty();
        Instant asOf = times.lastEvent().isAfter(now) ? now : times.lastEvent();
        Instant end = ControlPlaneEstimate.of(times, image, asOf, null).completedAt();
        if (end == null) return Optional.empty();
        return Optional.of(
                Sample.of(
                        Gauges.UPDATE_ESTIMATE.name(),
                        (double) end.getEpochSecond(),
                        "version",
                        String.valueOf(cv.getStatus().getDesired().getVersion())));
    }
}
