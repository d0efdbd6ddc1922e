package io.upshift.status.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.status.model.StatusObjects;
import io.upshift.status.reader.ClusterReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the update's insights as the controller keeps them: the UpdateStatus {@code cluster} and
 * the insight objects it summarises, one list request per kind, joined into the whole status.
 */
public final class UpdateStatusReader {
    private UpdateStatusReader() {}

    /** The whole status; null when there is no UpdateStatus or it has no status yet. */
    public static UpdateStatusStatus read(KubernetesClient client) {
        UpdateStatus us =
                ClusterReader.call(
                        client,
                        "updatestatuses.update.openshift.io/" + UpdateStatus.NAME,
                        () ->
                                client.resources(UpdateStatus.class)
                                        .withName(UpdateStatus.NAME)
                                        .get());
        if (us == null || us.getStatus() == null) {
            return null;
        }
        List<HasMetadata> objects = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : InsightKinds.ALL) {
            objects.addAll(
                    ClusterReader.call(
                            client,
                            HasMetadata.getFullResourceName(kind),
                            () -> client.resources(kind).list().getItems()));
        }
        return StatusObjects.join(us.getStatus(), objects);
    }
}
