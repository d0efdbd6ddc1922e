package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.upshift.api.json.Mappers;

/**
 * An object made as its controller makes it on a real cluster: created, then its status written
 * through the status subresource. A kind with a status subresource (every CRD of OpenShift's, and
 * Upshift's own) keeps no status sent with a create or an update of the object itself, so a test
 * that creates an object with its status in one request would find it without one on a real API
 * server.
 */
public final class WithStatus {
    private WithStatus() {}

    /** Creates {@code object}, then writes its status, if it has one; the object as stored. */
    @SuppressWarnings("unchecked")
    public static <T extends HasMetadata> T create(KubernetesClient client, T object) {
        JsonNode status = Mappers.JSON.valueToTree(object).get("status");
        T created = client.resource(object).create();
        if (status == null || status.isNull() || status.isEmpty()) return created;
        ObjectNode withStatus = Mappers.JSON.valueToTree(created);
        withStatus.set("status", status);
        T update = (T) Mappers.JSON.convertValue(withStatus, object.getClass());
        return client.resource(update).updateStatus();
    }

    /**
     * Creates {@code object}, then writes {@code status} as given (a JSON patch of the status
     * subresource): for a status whose explicit nulls matter (a ClusterVersion's history entry
     * still in progress has {@code completionTime: null}, which its CRD requires).
     */
    public static <T extends HasMetadata> T create(
            KubernetesClient client, T object, JsonNode status) {
        T created = client.resource(object).create();
        String patch = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":" + status + "}]";
        return client.resource(created)
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON), patch);
    }

    /** Replaces the status of the object {@code object} names with its status. */
    @SuppressWarnings("unchecked")
    public static <T extends HasMetadata> T update(KubernetesClient client, T object) {
        JsonNode status = Mappers.JSON.valueToTree(object).get("status");
        T live = client.resource(object).get();
        ObjectNode withStatus = Mappers.JSON.valueToTree(live);
        withStatus.set("status", status);
        T update = (T) Mappers.JSON.convertValue(withStatus, object.getClass());
        return client.resource(update).updateStatus();
    }
}
