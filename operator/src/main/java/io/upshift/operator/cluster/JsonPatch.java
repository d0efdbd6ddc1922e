package io.upshift.operator.cluster;

import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON patch (RFC 6902) of whole fields and single annotations. JSON patch rather than merge patch: lists are
 * replaced, not appended (the test API server appends lists in merge patches), and annotations others set survive.
 */
public final class JsonPatch {
    private static final ObjectMapper JSON = Mappers.JSON;
    public static final PatchContext CONTEXT = PatchContext.of(PatchType.JSON);

    private final ArrayNode ops = JSON.createArrayNode();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private final HasMetadata object;

    /** @param object the live object the patch is made against (for its annotations), or null */
    public JsonPatch(HasMetadata object) {
        this.object = object;
    }

    /** Sets the field at {@code path} (a JSON pointer such as {@code /spec/taints}) to {@code value}. */
    public JsonPatch set(String path, Object value) {
        ops.addObject().put("op", "add").put("path", path).set("value", JSON.valueToTree(value));
        return this;
    }

    /** Sets one annotation, unless the live object already has that value. */
    public JsonPatch annotate(String key, String value) {
        Map<String, String> live = object == null ? null : object.getMetadata().getAnnotations();
        if (live == null || !value.equals(live.get(key))) annotations.put(key, value);
        return this;
    }

    public boolean isEmpty() {
        return ops.isEmpty() && annotations.isEmpty();
    }

    @Override
    public String toString() {
        ArrayNode all = ops.deepCopy();
        if (!annotations.isEmpty()) {
            if (object == null || object.getMetadata().getAnnotations() == null) {
                all.addObject().put("op", "add").put("path", "/metadata/annotations").set("value", JSON.valueToTree(annotations));
            } else {
                annotations.forEach((k, v) -> all.addObject().put("op", "add")
                        .put("path", "/metadata/annotations/" + k.replace("~", "~0").replace("/", "~1")).put("value", v));
            }
        }
        return all.toString();
    }
}
