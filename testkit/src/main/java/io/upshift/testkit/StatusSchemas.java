package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Status writes validated as kube-apiserver validates them against a custom resource's CRD: the
 * stored object with the status written, against the schema of the version the request names, of
 * the CRD as stored at the time of the write (so that a CRD replaced by an older one, as a rollback
 * does, rejects what it no longer enumerates). Only the status is judged, and a value that equals
 * the stored one passes whatever the schema says (kube-apiserver's validation ratcheting, on by
 * default since 1.30; a list is compared whole, its items being uncorrelated). Fields the schema
 * does not declare are not refused but pruned ({@link #pruned}), as kube-apiserver drops them.
 */
final class StatusSchemas {
    private static final Pattern RESOURCE =
            Pattern.compile("/apis/([^/]+)/([^/]+)/(?:namespaces/[^/]+/)?([^/]+)/([^/]+)");

    /** A CRD's schema of one version, as of one resourceVersion of that CRD. */
    private record Cached(String resourceVersion, CrdSchema schema) {}

    private final Function<String, MockResponse> crds;
    private final Map<String, Cached> schemas = new ConcurrentHashMap<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();

    /**
     * @param crds answers a GET of the CRD of the name given
     */
    StatusSchemas(Function<String, MockResponse> crds) {
        this.crds = crds;
    }

    List<String> refusals() {
        return List.copyOf(refusals);
    }

    /**
     * Why the status of {@code written} may not replace that of {@code stored} (the object at
     * {@code path}), in kube-apiserver's words; null when it may, or when no CRD serves the path.
     */
    String refusal(String path, JsonNode stored, JsonNode written) {
        Matcher m = RESOURCE.matcher(path);
        if (!m.matches()) return null;
        String group = m.group(1), version = m.group(2), plural = m.group(3);
        CrdSchema schema = schema(plural + "." + group, version);
        if (schema == null) return null;
        ObjectNode candidate = stored.deepCopy();
        if (written.has("status")) candidate.set("status", written.get("status"));
        else candidate.remove("status");
        List<String> problems = new ArrayList<>();
        for (CrdSchema.Violation v : schema.violationsOf(candidate)) {
            if (v.path().isEmpty() || !"status".equals(v.path().get(0))) continue;
            if ("additionalProperties".equals(v.keyword())) continue; // pruned, not refused
            List<Object> compared = correlatable(v.path());
            if (at(stored, compared).equals(at(candidate, compared)))
                continue; // unchanged: ratcheted
            problems.add(v.where() + ": " + v.message());
        }
        if (problems.isEmpty()) return null;
        String refusal =
                stored.path("kind").asText()
                        + "."
                        + group
                        + " \""
                        + stored.path("metadata").path("name").asText()
                        + "\" is invalid: "
                        + (problems.size() == 1
                                ? problems.get(0)
                                : "[" + String.join(", ", problems) + "]");
        refusals.add(refusal);
        return refusal;
    }

    /** A custom resource's collection or object: group, version, plural. */
    private static final Pattern ANY =
            Pattern.compile("/apis/([^/]+)/([^/]+)/(?:namespaces/[^/]+/)?([^/]+)(?:/[^/]+)?");

    /**
     * Why {@code written}, created at or replacing {@code stored} (null for a create) at {@code
     * path}, is refused by its CRD's schema, as kube-apiserver validates a custom resource on every
     * write: what is outside metadata and status (the status subresource's, and for a kind without
     * one judged with the rest). Fields the schema does not declare pass (kube-apiserver prunes
     * them); a value equal to the stored one passes (ratcheting). Null when it may be written.
     */
    String objectRefusal(String path, JsonNode stored, JsonNode written) {
        Matcher m = ANY.matcher(path);
        if (!m.matches()) return null;
        String group = m.group(1), version = m.group(2), plural = m.group(3);
        CrdSchema schema = schema(plural + "." + group, version);
        if (schema == null) return null;
        List<String> problems = new ArrayList<>();
        for (CrdSchema.Violation v : schema.violationsOf(written)) {
            if ("additionalProperties".equals(v.keyword())) continue; // pruned, not refused
            Object first =
                    v.path().isEmpty()
                            ? ("required".equals(v.keyword()) ? v.property() : null)
                            : v.path().get(0);
            if ("metadata".equals(first) || "status".equals(first)) continue;
            List<Object> compared = correlatable(v.path());
            if (stored != null && at(stored, compared).equals(at(written, compared))) continue;
            problems.add(
                    "required".equals(v.keyword())
                            ? (v.where().isEmpty() ? "" : v.where() + ".")
                                    + v.property()
                                    + ": Required value"
                            : v.where() + ": " + v.message());
        }
        if (problems.isEmpty()) return null;
        String refusal =
                written.path("kind").asText()
                        + "."
                        + group
                        + " \""
                        + written.path("metadata").path("name").asText()
                        + "\" is invalid: "
                        + (problems.size() == 1
                                ? problems.get(0)
                                : "[" + String.join(", ", problems) + "]");
        refusals.add(refusal);
        return refusal;
    }

    /**
     * {@code written} without the fields its CRD's schema does not declare (at or under {@code
     * part}: "status", or anything but metadata and status when null), as kube-apiserver prunes
     * them from a custom resource it stores; null when nothing was pruned.
     */
    JsonNode pruned(String path, JsonNode written, String part) {
        Matcher m =
                ANY.matcher(path.endsWith("/status") ? path.substring(0, path.length() - 7) : path);
        if (!m.matches() || !(written instanceof ObjectNode objectNode)) return null;
        CrdSchema schema = schema(m.group(3) + "." + m.group(1), m.group(2));
        if (schema == null) return null;
        ObjectNode copy = objectNode.deepCopy();
        boolean any = false;
        for (CrdSchema.Violation v : schema.violationsOf(written)) {
            if (!"additionalProperties".equals(v.keyword()) || v.property() == null) continue;
            Object first = v.path().isEmpty() ? v.property() : v.path().get(0);
            boolean inPart =
                    part == null
                            ? !"metadata".equals(first) && !"status".equals(first)
                            : part.equals(first);
            if (!inPart || !(at(copy, v.path()) instanceof ObjectNode holder)) continue;
            any |= holder.remove(v.property()) != null;
        }
        return any ? copy : null;
    }

    private CrdSchema schema(String crdName, String version) {
        MockResponse answer = crds.apply(crdName);
        if (answer.code() != 200) return null;
        String body = answer.getBody().readUtf8();
        try {
            JsonNode crd = Mappers.JSON.readTree(body);
            String rv = crd.path("metadata").path("resourceVersion").asText();
            String key = crdName + "/" + version;
            Cached c = schemas.get(key);
            if (c == null || !c.resourceVersion().equals(rv)) {
                c =
                        new Cached(
                                rv,
                                CrdSchema.of(
                                        new ByteArrayInputStream(
                                                body.getBytes(StandardCharsets.UTF_8)),
                                        version));
                schemas.put(key, c);
            }
            return c.schema();
        } catch (java.io.IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The part of the path whose value ratcheting compares: an item of a list is not correlated
     * with the stored list's items, so the whole list must be unchanged.
     */
    private static List<Object> correlatable(List<Object> path) {
        for (int i = 0; i < path.size(); i++)
            if (path.get(i) instanceof Integer) return path.subList(0, i);
        return path;
    }

    private static JsonNode at(JsonNode node, List<Object> path) {
        JsonNode at = node;
        for (Object p : path) at = p instanceof Integer i ? at.path(i) : at.path((String) p);
        return at;
    }
}
