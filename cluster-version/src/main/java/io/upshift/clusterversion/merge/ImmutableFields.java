package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fields the API server refuses to change once they are set ({@code field is immutable}, 422):
 * whatever a kind's merge did, the live value stays. Writing the manifest's value there would be
 * refused on every pass and the pass would never complete; a value nobody can change is better left
 * alone and reported. They are written back exactly as stored, not as defaulted for comparing.
 */
final class ImmutableFields {
    private static final List<String> SELECTOR = List.of("spec.selector");

    /** Per group/kind, the dotted paths of its immutable fields. */
    private static final Map<String, List<String>> BY_KIND =
            Map.ofEntries(
                    Map.entry("apps/Deployment", SELECTOR),
                    Map.entry("apps/DaemonSet", SELECTOR),
                    Map.entry("apps/ReplicaSet", SELECTOR),
                    Map.entry(
                            "apps/StatefulSet",
                            List.of(
                                    "spec.selector",
                                    "spec.serviceName",
                                    "spec.volumeClaimTemplates",
                                    "spec.podManagementPolicy")),
                    // a Job's pod template cannot change after creation (only a suspended Job's
                    // scheduling hints can)
                    Map.entry(
                            "batch/Job",
                            List.of(
                                    "spec.selector",
                                    "spec.template",
                                    "spec.completions",
                                    "spec.completionMode",
                                    "spec.podFailurePolicy",
                                    "spec.manualSelector")),
                    Map.entry("/Service", List.of("spec.clusterIP", "spec.clusterIPs")),
                    // only a claim's requested size may grow; everything else is fixed at creation
                    // or bound by the binder
                    Map.entry(
                            "/PersistentVolumeClaim",
                            List.of(
                                    "spec.accessModes",
                                    "spec.selector",
                                    "spec.resources.limits",
                                    "spec.storageClassName",
                                    "spec.volumeMode",
                                    "spec.volumeName",
                                    "spec.dataSource",
                                    "spec.dataSourceRef")),
                    Map.entry("/Secret", List.of("type")),
                    Map.entry("rbac.authorization.k8s.io/RoleBinding", List.of("roleRef")),
                    Map.entry("rbac.authorization.k8s.io/ClusterRoleBinding", List.of("roleRef")),
                    Map.entry(
                            "storage.k8s.io/StorageClass",
                            List.of(
                                    "provisioner",
                                    "parameters",
                                    "reclaimPolicy",
                                    "volumeBindingMode")));

    /** What an object marked {@code immutable: true} (ConfigMaps, Secrets) can no longer change. */
    private static final List<String> SEALED = List.of("data", "binaryData", "immutable");

    private ImmutableFields() {}

    /**
     * Puts back, into {@code merged}, the live value of every immutable field of the kind that is
     * set live; returns the paths where the manifest asks for another value than the one kept.
     */
    static List<String> hold(
            String groupKind, JsonNode live, ObjectNode merged, JsonNode required) {
        List<String> held = new ArrayList<>();
        for (String path : paths(groupKind, live)) {
            JsonNode have = at(live, path);
            if (Semantic.isZero(have)) continue;
            JsonNode want = at(required, path);
            if (!Semantic.isZero(want) && !Semantic.equal(have, want)) held.add(path);
            put(merged, path, have.deepCopy());
        }
        return held;
    }

    /**
     * Puts back the immutable fields exactly as the server stores them ({@code stored}, before
     * defaults were filled in for comparing): a write must send them unchanged, not merely equal
     * once defaulted.
     */
    static void asStored(String groupKind, JsonNode stored, ObjectNode merged) {
        for (String path : paths(groupKind, stored)) {
            JsonNode have = at(stored, path);
            if (have != null && !have.isMissingNode()) put(merged, path, have.deepCopy());
            else remove(merged, path);
        }
    }

    private static void remove(ObjectNode root, String path) {
        String[] parts = path.split("\\.");
        JsonNode parent = root;
        for (int i = 0; i < parts.length - 1 && parent != null; i++) parent = parent.get(parts[i]);
        if (parent instanceof ObjectNode o) o.remove(parts[parts.length - 1]);
    }

    private static List<String> paths(String groupKind, JsonNode live) {
        List<String> paths = new ArrayList<>(BY_KIND.getOrDefault(groupKind, List.of()));
        if (("/ConfigMap".equals(groupKind) || "/Secret".equals(groupKind))
                && live.path("immutable").asBoolean(false)) paths.addAll(SEALED);
        return paths;
    }

    private static JsonNode at(JsonNode node, String path) {
        JsonNode n = node;
        for (String part : path.split("\\.")) n = n == null ? null : n.get(part);
        return n;
    }

    private static void put(ObjectNode root, String path, JsonNode value) {
        String[] parts = path.split("\\.");
        ObjectNode parent = root;
        for (int i = 0; i < parts.length - 1; i++) parent = Fields.object(parent, parts[i]);
        parent.set(parts[parts.length - 1], value);
    }
}
