package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The field operations {@code lib/resourcemerge} is made of, on JSON objects: each brings one field
 * of the live object ({@code existing}, changed in place) to what the manifest ({@code required})
 * asks, in one of the ways upstream does it.
 */
final class Fields {
    private Fields() {}

    /**
     * Whole replace; a field the manifest does not set is removed (upstream's pointer fields: nil
     * clears).
     */
    static void replace(ObjectNode existing, JsonNode required, String field) {
        JsonNode want = required.get(field);
        if (Semantic.isZero(want)) {
            existing.remove(field);
        } else if (!Semantic.equal(existing.get(field), want)) {
            existing.set(field, want.deepCopy());
        }
    }

    /**
     * A field Go holds as a pointer (upstream's setBoolPtr, setInt64Ptr and their kin): taken from
     * the manifest whatever its value when the manifest has it, so that {@code false} and {@code 0}
     * are kept ({@code runAsUser: 0} is root, not "unset"); removed when the manifest does not.
     */
    static void replacePresent(ObjectNode existing, JsonNode required, String field) {
        JsonNode want = required.get(field);
        if (want == null || want.isNull() || want.isMissingNode()) {
            existing.remove(field);
        } else if (!Semantic.equal(existing.get(field), want) || !existing.has(field)) {
            existing.set(field, want.deepCopy());
        }
    }

    /**
     * Whole replace, only when the manifest sets the field (upstream's setStringIfSet and its kin).
     */
    static void replaceIfSet(ObjectNode existing, JsonNode required, String field) {
        JsonNode want = required.get(field);
        if (!Semantic.isZero(want) && !Semantic.equal(existing.get(field), want))
            existing.set(field, want.deepCopy());
    }

    /** Keys set, never removed (labels, annotations, ConfigMap data, nodeSelector). */
    static void mergeMap(ObjectNode existing, JsonNode required, String field) {
        JsonNode want = required.get(field);
        if (want == null || !want.isObject() || want.isEmpty()) return;
        ObjectNode have = object(existing, field);
        for (Iterator<Map.Entry<String, JsonNode>> it = want.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!Semantic.equal(have.get(e.getKey()), e.getValue()) || !have.has(e.getKey()))
                have.set(e.getKey(), e.getValue().deepCopy());
        }
    }

    /**
     * A list of items identified by {@code key}: items of the manifest are merged into the live
     * item of the same key (or appended), live items the manifest does not list are removed; the
     * live order is kept.
     */
    static void keyedList(
            ObjectNode existing,
            JsonNode required,
            String field,
            String key,
            BiConsumer<ObjectNode, JsonNode> merge) {
        JsonNode want = required.get(field);
        List<JsonNode> wanted = new ArrayList<>();
        if (want != null && want.isArray()) want.forEach(wanted::add);
        JsonNode have = existing.get(field);
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        if (have != null && have.isArray()) {
            for (JsonNode item : have) {
                JsonNode match = find(wanted, key, item.path(key).asText(""));
                if (match == null) continue;
                ObjectNode merged = ((ObjectNode) item).deepCopy();
                merge.accept(merged, match);
                out.add(merged);
                wanted.remove(match);
            }
        }
        for (JsonNode w : wanted) {
            ObjectNode fresh = JsonNodeFactory.instance.objectNode();
            merge.accept(fresh, w);
            out.add(fresh);
        }
        if (out.isEmpty()) existing.remove(field);
        else if (!Semantic.equal(have, out)) existing.set(field, out);
    }

    private static JsonNode find(List<JsonNode> items, String key, String value) {
        for (JsonNode i : items) if (i.path(key).asText("").equals(value)) return i;
        return null;
    }

    /** The object at {@code field}, created empty when missing. */
    static ObjectNode object(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        if (n instanceof ObjectNode o) return o;
        return parent.putObject(field);
    }

    /** The object at {@code field} of the manifest, or an empty one. */
    static JsonNode in(JsonNode required, String field) {
        JsonNode n = required.get(field);
        return n != null && n.isObject() ? n : JsonNodeFactory.instance.objectNode();
    }
}
