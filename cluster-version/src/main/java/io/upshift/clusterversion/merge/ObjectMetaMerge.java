package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureObjectMeta}: labels and annotations are added or changed, never removed (others add
 * their own); owner references are matched by uid, replaced when they differ, added when missing,
 * never removed.
 */
final class ObjectMetaMerge {
    private ObjectMetaMerge() {}

    static void ensure(ObjectNode existing, JsonNode required) {
        Fields.replaceIfSet(existing, required, "namespace");
        Fields.replaceIfSet(existing, required, "name");
        Fields.mergeMap(existing, required, "labels");
        Fields.mergeMap(existing, required, "annotations");
        JsonNode want = required.get("ownerReferences");
        if (want == null || !want.isArray() || want.isEmpty()) return;
        JsonNode have = existing.get("ownerReferences");
        ArrayNode refs = have instanceof ArrayNode a ? a : existing.putArray("ownerReferences");
        for (JsonNode ref : want) {
            int at = -1;
            for (int i = 0; i < refs.size(); i++)
                if (refs.get(i).path("uid").asText().equals(ref.path("uid").asText())) at = i;
            if (at < 0) refs.add(ref.deepCopy());
            else if (!Semantic.equal(refs.get(at), ref)) refs.set(at, ref.deepCopy());
        }
    }
}
