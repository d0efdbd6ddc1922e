package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * What kube-apiserver's update validation refuses and fabric8's mock accepts: a write that changes
 * a field fixed at creation. The answer is the one kube-apiserver gives ({@code Deployment.apps
 * "web" is invalid: spec.selector: Invalid value: ...: field is immutable}), so that a controller
 * test fails where a real cluster would refuse.
 */
final class ImmutableFieldCheck {
    private static final List<String> SELECTOR = List.of("spec.selector");
    private static final Map<String, List<String>> FIXED =
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
                    Map.entry(
                            "batch/Job",
                            List.of(
                                    "spec.selector",
                                    "spec.template",
                                    "spec.completions",
                                    "spec.completionMode",
                                    "spec.podFailurePolicy")),
                    Map.entry("/Secret", List.of("type")),
                    Map.entry("rbac.authorization.k8s.io/RoleBinding", List.of("roleRef")),
                    Map.entry("rbac.authorization.k8s.io/ClusterRoleBinding", List.of("roleRef")));

    private ImmutableFieldCheck() {}

    /**
     * The message kube-apiserver refuses {@code updated} with, or null when it would accept the
     * change from {@code current}.
     */
    static String refusal(JsonNode current, JsonNode updated) {
        String apiVersion = current.path("apiVersion").asText();
        String group =
                apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String kind = current.path("kind").asText();
        String what =
                kind
                        + (group.isEmpty() ? "" : "." + group)
                        + " \""
                        + current.path("metadata").path("name").asText()
                        + "\" is invalid: ";
        for (String path : FIXED.getOrDefault(group + "/" + kind, List.of())) {
            if (!same(at(current, path), at(updated, path)))
                return what
                        + path
                        + ": Invalid value: "
                        + at(updated, path)
                        + ": field is immutable";
        }
        switch (group + "/" + kind) {
            case "/Service" -> {
                // a cluster IP may be left out of an update (the server keeps it), never changed
                String had = current.path("spec").path("clusterIP").asText("");
                String asked = updated.path("spec").path("clusterIP").asText("");
                if (!had.isEmpty() && !asked.isEmpty() && !had.equals(asked)) {
                    return what
                            + "spec.clusterIPs[0]: Invalid value: [\""
                            + asked
                            + "\"]: may not change once set";
                }
            }
            case "/PersistentVolumeClaim" -> {
                if (!same(
                        withoutMutable(current.path("spec")),
                        withoutMutable(updated.path("spec")))) {
                    return what
                            + "spec: Forbidden: spec is immutable after creation except"
                            + " resources.requests and volumeAttributesClassName for bound claims";
                }
            }
            case "/ConfigMap", "/Secret" -> {
                if (current.path("immutable").asBoolean(false)) {
                    for (String field : new String[] {"data", "binaryData", "immutable"}) {
                        if (!same(current.get(field), updated.get(field)))
                            return what
                                    + field
                                    + ": Forbidden: field is immutable when `immutable` is set";
                    }
                }
            }
            default -> {}
        }
        return null;
    }

    private static JsonNode withoutMutable(JsonNode spec) {
        if (!(spec instanceof ObjectNode o)) return spec;
        ObjectNode copy = o.deepCopy();
        copy.remove("volumeAttributesClassName");
        if (copy.get("resources") instanceof ObjectNode resources) {
            resources.remove("requests");
            if (resources.isEmpty()) copy.remove("resources");
        }
        return copy;
    }

    private static JsonNode at(JsonNode node, String path) {
        JsonNode n = node;
        for (String part : path.split("\\.")) n = n == null ? null : n.get(part);
        return n;
    }

    private static boolean same(JsonNode a, JsonNode b) {
        boolean aAbsent = a == null || a.isNull() || a.isMissingNode();
        boolean bAbsent = b == null || b.isNull() || b.isMissingNode();
        return (aAbsent || bAbsent) ? aAbsent == bAbsent : a.equals(b);
    }
}
