package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * The values the API server fills in where an object leaves a field unset, for the fields {@code
 * lib/resourcemerge} compares: applied alike to the manifest and to the live object before merging,
 * so that an unset field and its default compare equal whichever side left it unset (upstream
 * applies them to the manifest alone, which loops where it forgets one).
 */
final class ServerDefaults {
    private ServerDefaults() {}

    /** Fills the defaults of {@code object}'s kind in place; returns it. */
    static ObjectNode apply(String groupKind, ObjectNode object) {
        ObjectNode spec = object.get("spec") instanceof ObjectNode s ? s : null;
        switch (groupKind) {
            case "apps/Deployment" -> {
                if (spec == null) break;
                fill(spec, "replicas", 1);
                if (Semantic.isZero(spec.get("strategy"))) {
                    spec.putObject("strategy")
                            .put("type", "RollingUpdate")
                            .putObject("rollingUpdate")
                            .put("maxUnavailable", "25%")
                            .put("maxSurge", "25%");
                }
                podTemplate(spec, "Always");
            }
            case "apps/DaemonSet" -> {
                if (spec != null) podTemplate(spec, "Always");
            }
            case "batch/Job" -> {
                if (spec != null) job(spec);
            }
            case "batch/CronJob" -> {
                if (spec == null) break;
                fill(spec, "concurrencyPolicy", "Allow");
                fill(spec, "failedJobsHistoryLimit", 1);
                fill(spec, "successfulJobsHistoryLimit", 3);
                if (spec.path("jobTemplate").get("spec") instanceof ObjectNode jobSpec)
                    job(jobSpec);
            }
            case "/Service" -> {
                if (spec == null) break;
                fill(spec, "type", "ClusterIP");
                for (JsonNode p : spec.path("ports")) {
                    if (!(p instanceof ObjectNode port)) continue;
                    fill(port, "protocol", "TCP");
                    if (Semantic.isZero(port.get("targetPort")))
                        port.set("targetPort", port.path("port"));
                }
            }
            case "rbac.authorization.k8s.io/ClusterRoleBinding",
                    "rbac.authorization.k8s.io/RoleBinding" -> {
                if (object.get("roleRef") instanceof ObjectNode ref)
                    fill(ref, "apiGroup", "rbac.authorization.k8s.io");
            }
            case "apiextensions.k8s.io/CustomResourceDefinition" -> {
                if (spec == null) break;
                if (spec.get("names") instanceof ObjectNode names) {
                    String kind = names.path("kind").asText("");
                    fill(names, "singular", kind.toLowerCase(Locale.ROOT));
                    fill(names, "listKind", kind + "List");
                }
                if (Semantic.isZero(spec.get("conversion")))
                    spec.putObject("conversion").put("strategy", "None");
            }
            case "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
                    "admissionregistration.k8s.io/MutatingWebhookConfiguration" -> {
                for (JsonNode w : object.path("webhooks")) {
                    if (!(w instanceof ObjectNode hook)) continue;
                    fill(hook, "failurePolicy", "Fail");
                    fill(hook, "matchPolicy", "Equivalent");
                    if (hook.get("namespaceSelector") == null) hook.putObject("namespaceSelector");
                    if (hook.get("objectSelector") == null) hook.putObject("objectSelector");
                    fill(hook, "timeoutSeconds", 10);
                    for (JsonNode rule : hook.path("rules"))
                        if (rule instanceof ObjectNode r) fill(r, "scope", "*");
                    if (groupKind.endsWith("/MutatingWebhookConfiguration"))
                        fill(hook, "reinvocationPolicy", "Never");
                }
            }
            case "security.openshift.io/SecurityContextConstraints" -> {
                if (!object.has("allowPrivilegeEscalation")
                        || object.get("allowPrivilegeEscalation").isNull())
                    object.put("allowPrivilegeEscalation", true);
            }
            case "operators.coreos.com/OperatorGroup" -> {
                if (spec != null && Semantic.isZero(spec.get("upgradeStrategy")))
                    spec.putObject("upgradeStrategy").put("name", "Default");
            }
            case "image.openshift.io/ImageStream" -> {
                if (spec == null) break;
                for (JsonNode t : spec.path("tags")) {
                    if (!(t instanceof ObjectNode tag)) continue;
                    if (tag.get("importPolicy") instanceof ObjectNode policy)
                        fill(policy, "importMode", "Legacy");
                    else tag.putObject("importPolicy").put("importMode", "Legacy");
                    if (!(tag.get("referencePolicy") instanceof ObjectNode))
                        tag.putObject("referencePolicy").put("type", "Source");
                }
            }
            default -> {}
        }
        return object;
    }

    private static void job(ObjectNode spec) {
        fill(spec, "backoffLimit", 6);
        fill(spec, "completionMode", "NonIndexed");
        podTemplate(spec, null);
    }

    private static void podTemplate(ObjectNode spec, String restartPolicy) {
        if (!(spec.path("template").get("spec") instanceof ObjectNode pod)) return;
        if (restartPolicy != null) fill(pod, "restartPolicy", restartPolicy);
        fill(pod, "dnsPolicy", "ClusterFirst");
        fill(pod, "terminationGracePeriodSeconds", 30);
        boolean hostNetwork = pod.path("hostNetwork").asBoolean(false);
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : pod.path(list))
                if (c instanceof ObjectNode container) container(container, hostNetwork);
        }
        for (JsonNode v : pod.path("volumes")) if (v instanceof ObjectNode volume) volume(volume);
    }

    private static void container(ObjectNode c, boolean hostNetwork) {
        for (JsonNode p : c.path("ports")) {
            if (!(p instanceof ObjectNode port)) continue;
            fill(port, "protocol", "TCP");
            if (hostNetwork && Semantic.isZero(port.get("hostPort")))
                port.set("hostPort", port.path("containerPort"));
        }
        for (JsonNode v : c.path("env")) {
            if (v.path("valueFrom").get("fieldRef") instanceof ObjectNode ref)
                fill(ref, "apiVersion", "v1");
        }
        for (String probe : new String[] {"livenessProbe", "readinessProbe"}) {
            if (!(c.get(probe) instanceof ObjectNode p)) continue;
            fill(p, "timeoutSeconds", 1);
            fill(p, "periodSeconds", 10);
            fill(p, "successThreshold", 1);
            fill(p, "failureThreshold", 3);
            if (p.get("httpGet") instanceof ObjectNode get) fill(get, "scheme", "HTTP");
        }
    }

    private static void volume(ObjectNode v) {
        if (v.size() == 1 && v.has("name")) v.putObject("emptyDir");
        for (String source : new String[] {"secret", "configMap", "downwardAPI", "projected"}) {
            if (v.get(source) instanceof ObjectNode s) fill(s, "defaultMode", 420);
        }
        if (v.path("projected").get("sources") instanceof ArrayNode sources) {
            for (JsonNode s : sources) {
                if (s.get("serviceAccountToken") instanceof ObjectNode token)
                    fill(token, "expirationSeconds", 3600);
            }
        }
        if (v.get("hostPath") instanceof ObjectNode host && !host.has("type")) host.put("type", "");
    }

    private static void fill(ObjectNode o, String field, String value) {
        if (Semantic.isZero(o.get(field))) o.put(field, value);
    }

    private static void fill(ObjectNode o, String field, int value) {
        if (o.get(field) == null || o.get(field).isNull()) o.put(field, value);
    }
}
