package io.upshift.operator.cvo;

import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.upshift.core.payload.Manifest;
import io.upshift.core.taskgraph.Mode;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies one manifest: creates what is missing; patches (JSON merge patch) only when the live object differs on a
 * field the manifest sets, so server defaults and other writers' fields never cause a write loop; create-only
 * objects are never patched; objects marked for deletion are deleted when updating. Status is never written here.
 */
final class ManifestApplier {

    /** What applying did, for logs and for the no-write-without-difference tests. */
    enum Outcome { CREATED, PATCHED, UNCHANGED, DELETED, ABSENT }

    /**
     * @param written the object as the API returned it from this apply's write (null when nothing was written):
     *                what readiness must see at least, since an informer's cache can still hold the object from before
     */
    record Applied(Outcome outcome, GenericKubernetesResource written) {
        static Applied without(Outcome outcome) {
            return new Applied(outcome, null);
        }
    }

    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final LiveCache cache;
    private final java.util.function.Consumer<String> log;
    final AtomicLong writes = new AtomicLong();

    ManifestApplier(KubernetesClient client, LiveCache cache, java.util.function.Consumer<String> log) {
        this.client = client;
        this.cache = cache;
        this.log = log;
    }

    Applied apply(Manifest m, Mode mode) {
        Resource<GenericKubernetesResource> handle = LiveObjects.of(client, m);
        GenericKubernetesResource live = cache.get(m);
        if (m.markedForDeletion()) {
            if (live == null) return Applied.without(Outcome.ABSENT);
            if (mode != Mode.UPDATING) return Applied.without(Outcome.UNCHANGED);
            handle.delete();
            writes.incrementAndGet();
            return Applied.without(Outcome.DELETED);
        }
        ObjectNode desired = desired(m);
        if (live == null) {
            try {
                GenericKubernetesResource created = handle.create(JSON.convertValue(desired, GenericKubernetesResource.class));
                writes.incrementAndGet();
                return new Applied(Outcome.CREATED, created);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
                live = handle.get(); // created meanwhile, and not in the cache yet (another writer, or our own write before a restart)
                if (live == null) throw e;
            }
        }
        if (m.createOnly()) return Applied.without(Outcome.UNCHANGED);
        JsonNode current = JSON.valueToTree(live);
        String diff = difference(current, desired, "", MergeRules.exact(m));
        if (diff == null) return Applied.without(Outcome.UNCHANGED);
        if (MergeRules.recreate(m, diff)) {
            log.accept(Readiness.describe(m) + ": recreating, " + diff + " differs from the payload and cannot be changed in place");
            handle.withTimeout(30, java.util.concurrent.TimeUnit.SECONDS).delete();
            GenericKubernetesResource created = handle.create(JSON.convertValue(desired, GenericKubernetesResource.class));
            writes.addAndGet(2);
            return new Applied(Outcome.CREATED, created);
        }
        log.accept(Readiness.describe(m) + ": updating, " + diff + " differs from the payload");
        GenericKubernetesResource patched = handle.patch(PatchContext.of(PatchType.JSON), patch(current, desired, MergeRules.exact(m)).toString());
        writes.incrementAndGet();
        return new Applied(Outcome.PATCHED, patched);
    }

    /**
     * A JSON patch (RFC 6902) setting each top-level field of {@code desired} to the live value merged with the
     * desired one: objects merge key by key (fields others set survive), lists and scalars are replaced. JSON patch
     * rather than merge patch, because the test API server appends lists in merge patches.
     */
    static com.fasterxml.jackson.databind.node.ArrayNode patch(JsonNode live, ObjectNode desired, java.util.Set<String> exact) {
        com.fasterxml.jackson.databind.node.ArrayNode ops = JSON.createArrayNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("apiVersion") || e.getKey().equals("kind")) continue;
            JsonNode value = e.getKey().equals("metadata") ? metadata(live.path("metadata"), e.getValue())
                    : exact.contains(e.getKey()) ? e.getValue() : merge(live.get(e.getKey()), e.getValue());
            ops.addObject().put("op", "add").put("path", "/" + e.getKey()).set("value", value);
        }
        return ops;
    }

    /** Labels and annotations merged; identity fields stay the server's. */
    private static JsonNode metadata(JsonNode live, JsonNode desired) {
        ObjectNode out = live.deepCopy();
        for (String field : new String[] {"labels", "annotations"}) {
            if (desired.has(field)) out.set(field, merge(live.get(field), desired.get(field)));
        }
        return out;
    }

    static JsonNode merge(JsonNode live, JsonNode desired) {
        if (live == null || !live.isObject() || !desired.isObject()) return desired;
        ObjectNode out = live.deepCopy();
        desired.fields().forEachRemaining(f -> out.set(f.getKey(), merge(live.get(f.getKey()), f.getValue())));
        return out;
    }

    /** True when applying {@code m} would write nothing: the live object already is what the manifest says. */
    boolean applied(Manifest m) {
        GenericKubernetesResource live = cache.get(m);
        if (m.markedForDeletion()) return live == null;
        if (live == null) return false;
        return m.createOnly() || difference(JSON.valueToTree(live), desired(m), "", MergeRules.exact(m)) == null;
    }

    /** The manifest as written: everything but status. */
    static ObjectNode desired(Manifest m) {
        ObjectNode o = m.object().deepCopy();
        o.remove("status");
        // stringData is write-only: the API keeps it as base64 data, so compare and write it in that form
        if ("Secret".equals(m.kind()) && m.group().isEmpty() && o.get("stringData") instanceof ObjectNode plain) {
            ObjectNode data = o.get("data") instanceof ObjectNode d ? d : o.putObject("data");
            plain.fields().forEachRemaining(f -> data.put(f.getKey(),
                    java.util.Base64.getEncoder().encodeToString(f.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8))));
            o.remove("stringData");
        }
        return o;
    }

    /**
     * The first field {@code want} sets that {@code have} does not have with the same value (lists compared item by
     * item), as a path; null when {@code have} covers {@code want}.
     */
    static String difference(JsonNode have, JsonNode want, String path, java.util.Set<String> exact) {
        if (path.isEmpty()) {
            // fields the payload owns whole: a key someone else added is a difference too
            for (String field : exact) {
                JsonNode w = want.get(field), h = have.get(field);
                if (w != null && !w.equals(h == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : h)) return "." + field;
                if (w == null && h != null && !h.isNull() && h.size() > 0) return "." + field;
            }
        }
        return difference(have, want, path);
    }

    static String difference(JsonNode have, JsonNode want, String path) {
        if (want.isObject()) {
            if (!have.isObject()) return path.isEmpty() ? "the object" : path;
            for (Iterator<Map.Entry<String, JsonNode>> it = want.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode h = have.get(e.getKey());
                String at = path + "." + e.getKey();
                if (e.getValue().isNull()) {
                    if (h != null && !h.isNull()) return at;
                    continue;
                }
                if (h == null) return at;
                String d = difference(h, e.getValue(), at);
                if (d != null) return d;
            }
            return null;
        }
        if (want.isArray()) {
            if (!have.isArray() || have.size() != want.size()) return path;
            for (int i = 0; i < want.size(); i++) {
                String d = difference(have.get(i), want.get(i), path + "[" + i + "]");
                if (d != null) return d;
            }
            return null;
        }
        if (want.isNumber() && have.isNumber()) return want.decimalValue().compareTo(have.decimalValue()) == 0 ? null : path;
        return want.asText().equals(have.asText()) && want.isTextual() == have.isTextual() ? null : path;
    }
}
