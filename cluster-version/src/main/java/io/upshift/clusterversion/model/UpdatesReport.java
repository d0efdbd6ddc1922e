package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import java.time.Instant;
import java.util.List;

/**
 * What the update graph said at a sync, for ClusterVersion status: the RetrievedUpdates condition
 * and the update lists, or nothing new ({@link #unchanged}); and when to ask again.
 *
 * @param lists the lists to show; null leaves them as status holds them
 */
public record UpdatesReport(
        boolean changed,
        String status,
        String reason,
        String message,
        Lists lists,
        Instant nextRefresh) {

    /** {@code availableUpdates} and {@code conditionalUpdates}; nulls clear them. */
    public record Lists(List<Release> available, List<ConditionalUpdate> conditional) {}

    public static UpdatesReport unchanged(Instant nextRefresh) {
        return new UpdatesReport(false, "", "", "", null, nextRefresh);
    }
}
