package io.upshift.runtime.kube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.upshift.api.json.Mappers;
import java.util.Map;

/**
 * A JSON merge patch (RFC 7386) of a few fields. Made {@link #against} an object as it was read, it
 * carries that object's resourceVersion, which the API server takes as a precondition: if anyone
 * wrote the object since, the patch is refused (409) instead of overwriting what they wrote, and
 * the writer reads again and recomputes. Lists are replaced whole, so a list must only be written
 * against the object it was computed from.
 */
public final class MergePatch {
    public static final PatchContext CONTEXT = PatchContext.of(PatchType.JSON_MERGE);

    private final ObjectNode body = Mappers.JSON.createObjectNode();
    private final Map<String, String> annotations;
    private boolean changes;

    private MergePatch(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    /** A patch applied only if {@code read} is still the object's current version. */
    public static MergePatch against(HasMetadata read) {
        MergePatch p =
                new MergePatch(
                        read.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : read.getMetadata().getAnnotations());
        p.body.putObject("metadata")
                .put("resourceVersion", read.getMetadata().getResourceVersion());
        return p;
    }

    /**
     * A patch of fields only this writer sets (no precondition: nobody else's change can be lost).
     */
    public static MergePatch ofOwnFields() {
        return new MergePatch(Map.of());
    }

    /**
     * Sets the field at the dotted {@code path} (such as {@code spec.taints}) to {@code value};
     * null removes it.
     */
    public MergePatch set(String path, Object value) {
        String[] parts = path.split("\\.");
        ObjectNode at = body;
        for (int i = 0; i < parts.length - 1; i++)
            at = at.has(parts[i]) ? (ObjectNode) at.get(parts[i]) : at.putObject(parts[i]);
        at.set(parts[parts.length - 1], Mappers.JSON.valueToTree(value));
        changes = true;
        return this;
    }

    /** Sets one annotation, unless the object read already has that value. */
    public MergePatch annotate(String key, String value) {
        if (value.equals(annotations.get(key))) return this;
        ObjectNode metadata =
                body.has("metadata")
                        ? (ObjectNode) body.get("metadata")
                        : body.putObject("metadata");
        ObjectNode a =
                metadata.has("annotations")
                        ? (ObjectNode) metadata.get("annotations")
                        : metadata.putObject("annotations");
        a.put(key, value);
        changes = true;
        return this;
    }

    /**
     * Sends this patch to the object {@code read} names (its kind, namespace and name), in one
     * request. fabric8's patch of a resource named with {@code withName} reads the object first: a
     * request, and a {@code get} permission, for nothing.
     */
    public <T extends HasMetadata> T sendTo(KubernetesClient client, T read) {
        return client.resource(read).patch(CONTEXT, toString());
    }

    /** True when the patch would change nothing. */
    public boolean isEmpty() {
        return !changes;
    }

    @Override
    public String toString() {
        return body.toString();
    }
}
