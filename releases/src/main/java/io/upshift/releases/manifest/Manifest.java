package io.upshift.releases.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Kubernetes object from a payload file: where it came from (file name and line, for errors and
 * for the task graph, which orders by file name) and the object itself. The object node must not be
 * modified.
 */
public record Manifest(
        String file,
        int line,
        String apiVersion,
        String kind,
        String namespace,
        String name,
        Map<String, String> annotations,
        ObjectNode object) {

    public static final String CAPABILITY = "capability.openshift.io/name";
    public static final String CREATE_ONLY = "release.openshift.io/create-only";
    public static final String DELETE = "release.openshift.io/delete";

    /** The identity of an object: two manifests with one identity describe the same object. */
    public record Id(String group, String kind, String namespace, String name) {
        @Override
        public String toString() {
            String gk = group.isEmpty() ? kind : kind + "." + group;
            return gk + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
        }
    }

    /**
     * Reads identity and annotations off {@code object}; the caller has checked that kind and name
     * are set.
     */
    public static Manifest of(String file, int line, ObjectNode object) {
        JsonNode meta = object.path("metadata");
        Map<String, String> annotations = new LinkedHashMap<>();
        meta.path("annotations")
                .fields()
                .forEachRemaining(e -> annotations.put(e.getKey(), e.getValue().asText()));
        return new Manifest(
                file,
                line,
                object.path("apiVersion").asText(""),
                object.path("kind").asText(""),
                meta.path("namespace").asText(""),
                meta.path("name").asText(""),
                Collections.unmodifiableMap(annotations),
                object);
    }

    /** The API group, empty for the core group ({@code v1}). */
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public Id id() {
        return new Id(group(), kind, namespace, name);
    }

    /**
     * Capabilities that must all be enabled for this manifest to apply ({@code A+B}); empty when
     * none.
     */
    public List<String> capabilities() {
        String v = annotations.getOrDefault(CAPABILITY, "");
        return v.isEmpty() ? List.of() : Arrays.asList(v.split("\\+"));
    }

    /** Created when missing, never updated. */
    public boolean createOnly() {
        return "true".equals(annotations.get(CREATE_ONLY));
    }

    /** To be deleted from the cluster when updating to this payload. */
    public boolean markedForDeletion() {
        return "true".equals(annotations.get(DELETE));
    }

    public boolean isJob() {
        return "Job".equals(kind) && "batch/v1".equals(apiVersion);
    }

    /** {@code "Deployment.apps ns/name" (0000_50_x.yaml:12)} */
    @Override
    public String toString() {
        return id() + " (" + file + ":" + line + ")";
    }
}
