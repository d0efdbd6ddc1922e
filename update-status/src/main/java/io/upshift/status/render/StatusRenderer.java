package io.upshift.status.render;

import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.status.model.Times;
import io.upshift.status.model.UpdateAssessment;
import java.time.Instant;

/**
 * The text of {@code upshift status}, byte for byte the text of {@code oc adm upgrade status},
 * rendered from an UpdateStatus alone: assessing locally and reading the controller's UpdateStatus
 * print the same.
 */
public final class StatusRenderer {
    /** The whole text when no update is in progress and no worker pool is behind. */
    public static final String NOT_UPDATING = "The cluster is not updating.\n";

    private StatusRenderer() {}

    /**
     * @throws IllegalArgumentException when the status lacks what the text needs (no ClusterVersion
     *     insight)
     */
    public static String render(UpdateStatusStatus status, Instant now, Details details) {
        return render(status, now, details, EstimateSource.oc);
    }

    /**
     * As {@link #render(UpdateStatusStatus, Instant, Details)}, with {@code estimates} saying whose
     * estimates show: oc's text is oc's byte for byte; Upshift's replaces the control plane's time
     * remaining (and says what it rests on), each node's EST, and adds an EST column to the worker
     * pools.
     */
    public static String render(
            UpdateStatusStatus status, Instant now, Details details, EstimateSource estimates) {
        StatusView view = StatusView.of(status);
        boolean updating =
                Conditions.META.isTrue(
                        view.clusterVersion().conditions(), ClusterVersionInsight.UPDATING);
        if (!updating && !view.workersOutdated()) {
            return NOT_UPDATING + HeldUpdateLines.of(view.clusterVersion(), now, estimates);
        }
        Instant started = Times.parse(view.clusterVersion().startedAt());
        long updatingFor =
                started == null
                        ? 0
                        : GoDuration.round(Times.between(started, now), GoDuration.SECOND);

        StringBuilder out = new StringBuilder();
        ControlPlaneSection.write(out, view, now, details.shows(Details.operators), estimates);
        if (view.controlPlanePool() != null) {
            NodeTables.writeNodes(
                    out,
                    view.controlPlanePool(),
                    true,
                    details.shows(Details.nodes),
                    now,
                    estimates);
        }
        if (view.workerPools().stream().anyMatch(p -> !p.nodes().isEmpty())) {
            out.append("\n= Worker Upgrade =\n");
            NodeTables.writePools(out, view.workerPools(), now, estimates);
            for (StatusView.PoolView pool : view.workerPools()) {
                NodeTables.writeNodes(
                        out, pool, false, details.shows(Details.nodes), now, estimates);
            }
        }
        out.append('\n');
        HealthSection.write(
                out,
                UpdateAssessment.health(status),
                updatingFor,
                now,
                details.shows(Details.health));
        return out.toString();
    }
}
