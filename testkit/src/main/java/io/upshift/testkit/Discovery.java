package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The API server's discovery documents ({@code /version}, {@code /api}, {@code /api/v1}, {@code
 * /apis}, {@code /apis/<group>/<version>}), which fabric8's mock does not serve and which {@code
 * kubectl} and {@code oc} read before they name a resource: the built-in kinds the simulated
 * cluster uses, and every CustomResourceDefinition's served versions.
 */
final class Discovery {
    /** A resource of the API: plural name, kind, namespaced or not, and its short names. */
    private record Resource(
            String plural, String kind, boolean namespaced, List<String> shortNames) {
        Resource(String plural, String kind, boolean namespaced, String... shortNames) {
            this(plural, kind, namespaced, List.of(shortNames));
        }
    }

    private static final List<String> VERBS =
            List.of(
                    "create",
                    "delete",
                    "deletecollection",
                    "get",
                    "list",
                    "patch",
                    "update",
                    "watch");

    /** The built-in group-versions, "v1" being the core group. */
    private static final Map<String, List<Resource>> BUILT_IN = new LinkedHashMap<>();

    static {
        BUILT_IN.put(
                "v1",
                List.of(
                        new Resource("namespaces", "Namespace", false, "ns"),
                        new Resource("nodes", "Node", false, "no"),
                        new Resource("pods", "Pod", true, "po"),
                        new Resource("configmaps", "ConfigMap", true, "cm"),
                        new Resource("secrets", "Secret", true),
                        new Resource("services", "Service", true, "svc"),
                        new Resource("serviceaccounts", "ServiceAccount", true, "sa"),
                        new Resource("events", "Event", true, "ev"),
                        new Resource("endpoints", "Endpoints", true, "ep"),
                        new Resource(
                                "persistentvolumeclaims", "PersistentVolumeClaim", true, "pvc")));
        BUILT_IN.put(
                "apps/v1",
                List.of(
                        new Resource("deployments", "Deployment", true, "deploy"),
                        new Resource("daemonsets", "DaemonSet", true, "ds"),
                        new Resource("statefulsets", "StatefulSet", true, "sts"),
                        new Resource("replicasets", "ReplicaSet", true, "rs")));
        BUILT_IN.put(
                "batch/v1",
                List.of(
                        new Resource("jobs", "Job", true),
                        new Resource("cronjobs", "CronJob", true, "cj")));
        BUILT_IN.put(
                "policy/v1",
                List.of(new Resource("poddisruptionbudgets", "PodDisruptionBudget", true, "pdb")));
        BUILT_IN.put("coordination.k8s.io/v1", List.of(new Resource("leases", "Lease", true)));
        BUILT_IN.put(
                "rbac.authorization.k8s.io/v1",
                List.of(
                        new Resource("roles", "Role", true),
                        new Resource("rolebindings", "RoleBinding", true),
                        new Resource("clusterroles", "ClusterRole", false),
                        new Resource("clusterrolebindings", "ClusterRoleBinding", false)));
        BUILT_IN.put(
                "apiextensions.k8s.io/v1",
                List.of(
                        new Resource(
                                "customresourcedefinitions",
                                "CustomResourceDefinition",
                                false,
                                "crd",
                                "crds")));
    }

    private final Supplier<List<JsonNode>> crds;

    /**
     * @param crds the CustomResourceDefinitions the server holds now
     */
    Discovery(Supplier<List<JsonNode>> crds) {
        this.crds = crds;
    }

    /**
     * The discovery document at {@code path} (without its query), or empty when the path is not a
     * discovery path.
     */
    Optional<JsonNode> answer(String path) {
        if (path.equals("/version")) return Optional.of(version());
        if (path.equals("/api"))
            return Optional.of(
                    object("APIVersions")
                            .set("versions", Mappers.JSON.createArrayNode().add("v1")));
        if (path.equals("/apis")) return Optional.of(groups());
        String[] parts = path.split("/");
        if (path.equals("/api/v1")) return Optional.of(resources("v1"));
        if (parts.length == 4 && parts[1].equals("apis")) {
            String groupVersion = parts[2] + "/" + parts[3];
            if (all().containsKey(groupVersion)) return Optional.of(resources(groupVersion));
        }
        return Optional.empty();
    }

    /**
     * The kind of a list of {@code path}'s resources ({@code ClusterOperatorList}) and its
     * group-version, or empty when {@code path} (without its query) names no collection this server
     * serves.
     */
    Optional<String[]> listKind(String path) {
        String[] s = path.split("/");
        int rest;
        String groupVersion;
        if (s.length >= 3 && s[1].equals("api")) {
            groupVersion = s[2];
            rest = 3;
        } else if (s.length >= 4 && s[1].equals("apis")) {
            groupVersion = s[2] + "/" + s[3];
            rest = 4;
        } else {
            return Optional.empty();
        }
        int left = s.length - rest;
        String plural =
                left == 1
                        ? s[rest]
                        : left == 3 && s[rest].equals("namespaces") ? s[rest + 2] : null;
        if (plural == null) return Optional.empty();
        return all().getOrDefault(groupVersion, List.of()).stream()
                .filter(r -> r.plural().equals(plural))
                .findFirst()
                .map(r -> new String[] {r.kind() + "List", groupVersion});
    }

    /**
     * The CustomResourceDefinition of the resources {@code path} names (a collection or one
     * object), if they are custom.
     */
    Optional<JsonNode> crdOf(String path) {
        String[] s = path.split("/");
        if (s.length < 5 || !s[1].equals("apis")) return Optional.empty();
        int rest = 4;
        String plural = s.length > rest + 2 && s[rest].equals("namespaces") ? s[rest + 2] : s[rest];
        for (JsonNode crd : crds.get()) {
            JsonNode spec = crd.path("spec");
            if (spec.path("group").asText().equals(s[2])
                    && spec.path("names").path("plural").asText().equals(plural))
                return Optional.of(crd);
        }
        return Optional.empty();
    }

    private static JsonNode version() {
        ObjectNode v = Mappers.JSON.createObjectNode();
        v.put("major", "1")
                .put("minor", "32")
                .put("gitVersion", "v1.32.0-upshift-embedded")
                .put("platform", "linux/amd64");
        return v;
    }

    private ObjectNode groups() {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        all().keySet().stream()
                .filter(gv -> gv.contains("/"))
                .forEach(
                        gv -> {
                            String[] g = gv.split("/");
                            versions.computeIfAbsent(g[0], k -> new ArrayList<>()).add(g[1]);
                        });
        ArrayNode list = Mappers.JSON.createArrayNode();
        versions.forEach(
                (group, vs) -> {
                    ObjectNode g = list.addObject().put("name", group);
                    ArrayNode vn = g.putArray("versions");
                    vs.forEach(
                            v ->
                                    vn.addObject()
                                            .put("groupVersion", group + "/" + v)
                                            .put("version", v));
                    g.putObject("preferredVersion")
                            .put("groupVersion", group + "/" + vs.get(0))
                            .put("version", vs.get(0));
                });
        ObjectNode out = object("APIGroupList");
        out.set("groups", list);
        return out;
    }

    private ObjectNode resources(String groupVersion) {
        ObjectNode out = object("APIResourceList").put("groupVersion", groupVersion);
        ArrayNode list = out.putArray("resources");
        for (Resource r : all().get(groupVersion)) {
            ObjectNode n =
                    list.addObject()
                            .put("name", r.plural())
                            .put("singularName", r.kind().toLowerCase(Locale.ROOT))
                            .put("namespaced", r.namespaced())
                            .put("kind", r.kind());
            VERBS.forEach(n.putArray("verbs")::add);
            if (!r.shortNames().isEmpty()) r.shortNames().forEach(n.putArray("shortNames")::add);
        }
        return out;
    }

    /**
     * The group-versions served now: the built-in ones and those of every CRD's served versions.
     */
    private Map<String, List<Resource>> all() {
        Map<String, List<Resource>> all = new LinkedHashMap<>();
        BUILT_IN.forEach((gv, resources) -> all.put(gv, new ArrayList<>(resources)));
        for (JsonNode crd : crds.get()) {
            JsonNode spec = crd.path("spec"), names = spec.path("names");
            List<String> shortNames = new ArrayList<>();
            names.path("shortNames").forEach(s -> shortNames.add(s.asText()));
            Resource r =
                    new Resource(
                            names.path("plural").asText(),
                            names.path("kind").asText(),
                            "Namespaced".equals(spec.path("scope").asText()),
                            shortNames);
            for (JsonNode v : spec.path("versions")) {
                if (!v.path("served").asBoolean(true)) continue;
                all.computeIfAbsent(
                                spec.path("group").asText() + "/" + v.path("name").asText(),
                                k -> new ArrayList<>())
                        .add(r);
            }
        }
        return all;
    }

    private static ObjectNode object(String kind) {
        return Mappers.JSON.createObjectNode().put("kind", kind).put("apiVersion", "v1");
    }
}
