package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ensurePodTemplateSpec}: the pod template of Deployments, DaemonSets, Jobs and CronJobs.
 * Containers and volumes the manifest no longer lists are removed; scheduling fields others add
 * (tolerations, nodeSelector keys) stay.
 */
final class PodTemplateMerge {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PodTemplateMerge() {}

    static void ensure(ObjectNode existingTemplate, JsonNode requiredTemplate) {
        ObjectMetaMerge.ensure(
                Fields.object(existingTemplate, "metadata"),
                Fields.in(requiredTemplate, "metadata"));
        ensurePodSpec(Fields.object(existingTemplate, "spec"), Fields.in(requiredTemplate, "spec"));
    }

    private static void ensurePodSpec(ObjectNode e, JsonNode r) {
        Fields.keyedList(e, r, "initContainers", "name", PodTemplateMerge::ensureContainer);
        Fields.keyedList(e, r, "containers", "name", PodTemplateMerge::ensureContainer);
        Fields.keyedList(e, r, "volumes", "name", PodTemplateMerge::wholeReplace);
        Fields.replaceIfSet(e, r, "restartPolicy");
        Fields.replacePresent(e, r, "automountServiceAccountToken");
        Fields.replaceIfSet(e, r, "serviceAccountName");
        Fields.replace(e, r, "hostNetwork");
        Fields.replacePresent(e, r, "hostUsers");
        Fields.mergeMap(e, r, "nodeSelector");
        Fields.replaceIfSet(e, r, "priorityClassName");
        Fields.replacePresent(e, r, "priority");
        Fields.replacePresent(e, r, "shareProcessNamespace");
        Fields.replace(e, r, "dnsPolicy");
        Fields.replace(e, r, "terminationGracePeriodSeconds");
        ensurePodSecurityContext(e, r);
        ensureAffinity(e, r);
        ensureTolerations(e, r);
    }

    private static void ensureContainer(ObjectNode e, JsonNode r) {
        Fields.replaceIfSet(e, r, "name");
        Fields.replaceIfSet(e, r, "image");
        Fields.replaceIfSet(e, r, "workingDir");
        Fields.replace(e, r, "command");
        Fields.replace(e, r, "args");
        Fields.replace(e, r, "env");
        Fields.replace(e, r, "envFrom");
        ensureResources(Fields.object(e, "resources"), Fields.in(r, "resources"));
        if (e.get("resources").isEmpty()) e.remove("resources");
        Fields.keyedList(e, r, "ports", "name", PodTemplateMerge::wholeReplace);
        Fields.keyedList(e, r, "volumeMounts", "mountPath", PodTemplateMerge::wholeReplace);
        ensureProbe(e, r, "livenessProbe");
        ensureProbe(e, r, "readinessProbe");
        ensureContainerSecurityContext(e, r);
    }

    /**
     * Limits and requests each replaced whole, unless they name the same amounts ("500m" is 0.5).
     */
    private static void ensureResources(ObjectNode e, JsonNode r) {
        for (String field : new String[] {"limits", "requests"}) {
            if (!Semantic.sameQuantities(e.get(field), r.get(field))) {
                if (Semantic.isZero(r.get(field))) e.remove(field);
                else e.set(field, r.get(field).deepCopy());
            }
        }
    }

    /** A probe the manifest drops is removed; one it sets replaces the live one whole. */
    private static void ensureProbe(ObjectNode e, JsonNode r, String field) {
        Fields.replace(e, r, field);
    }

    private static void ensureContainerSecurityContext(ObjectNode e, JsonNode r) {
        JsonNode want = r.get("securityContext");
        if (Semantic.isZero(want)) {
            e.remove("securityContext");
            return;
        }
        if (Semantic.isZero(e.get("securityContext"))) {
            e.set("securityContext", want.deepCopy());
            return;
        }
        ObjectNode have = (ObjectNode) e.get("securityContext");
        ObjectNode caps = Fields.object(have, "capabilities");
        for (String list : new String[] {"add", "drop"})
            unionAppend(caps, want.path("capabilities"), list);
        if (caps.isEmpty()) have.remove("capabilities");
        ensureSeLinuxOptions(have, want);
        for (String f :
                new String[] {
                    "privileged",
                    "runAsUser",
                    "runAsNonRoot",
                    "readOnlyRootFilesystem",
                    "allowPrivilegeEscalation"
                }) {
            Fields.replacePresent(have, want, f);
        }
        Fields.replace(have, want, "seccompProfile");
    }

    private static void ensurePodSecurityContext(ObjectNode e, JsonNode r) {
        JsonNode want = r.get("securityContext");
        if (Semantic.isZero(want)) {
            e.remove("securityContext");
            return;
        }
        ObjectNode have = Fields.object(e, "securityContext");
        ensureSeLinuxOptions(have, want);
        for (String f : new String[] {"runAsUser", "runAsGroup", "runAsNonRoot", "fsGroup"})
            Fields.replacePresent(have, want, f);
        Fields.replace(have, want, "seccompProfile");
        unionAppend(have, want, "supplementalGroups");
        JsonNode sysctls = want.get("sysctls");
        if (sysctls != null && sysctls.isArray()) {
            ArrayNode list =
                    have.get("sysctls") instanceof ArrayNode a ? a : have.putArray("sysctls");
            for (JsonNode s : sysctls) {
                int at = -1;
                for (int i = 0; i < list.size(); i++)
                    if (list.get(i).path("name").asText().equals(s.path("name").asText())) at = i;
                if (at < 0) list.add(s.deepCopy());
                else if (!Semantic.equal(list.get(at), s)) list.set(at, s.deepCopy());
            }
        }
    }

    private static void ensureSeLinuxOptions(ObjectNode have, JsonNode want) {
        JsonNode options = want.get("seLinuxOptions");
        if (Semantic.isZero(options)) return;
        ObjectNode o = Fields.object(have, "seLinuxOptions");
        for (String f : new String[] {"user", "role", "type", "level"})
            Fields.replaceIfSet(o, options, f);
    }

    /**
     * Affinity the manifest does not set is left alone; each kind of affinity it sets is replaced
     * whole.
     */
    private static void ensureAffinity(ObjectNode e, JsonNode r) {
        JsonNode want = r.get("affinity");
        if (Semantic.isZero(want)) return;
        ObjectNode have = Fields.object(e, "affinity");
        for (String f : new String[] {"nodeAffinity", "podAffinity", "podAntiAffinity"})
            Fields.replace(have, want, f);
    }

    /** The manifest's tolerations are added once each; tolerations others added stay. */
    private static void ensureTolerations(ObjectNode e, JsonNode r) {
        JsonNode want = r.get("tolerations");
        if (want == null || !want.isArray() || want.isEmpty()) return;
        List<JsonNode> out = new ArrayList<>();
        JsonNode have = e.get("tolerations");
        if (have != null && have.isArray()) {
            for (JsonNode t : have) {
                boolean required = false;
                for (JsonNode w : want) required |= Semantic.equal(t, w);
                boolean duplicate = out.stream().anyMatch(o -> Semantic.equal(o, t));
                if (!(required && duplicate)) out.add(t);
            }
        }
        for (JsonNode w : want)
            if (out.stream().noneMatch(o -> Semantic.equal(o, w))) out.add(w.deepCopy());
        ArrayNode list = F.arrayNode();
        out.forEach(list::add);
        if (!Semantic.equal(have, list)) e.set("tolerations", list);
    }

    private static void unionAppend(ObjectNode have, JsonNode want, String field) {
        JsonNode w = want.get(field);
        if (w == null || !w.isArray() || w.isEmpty()) return;
        ArrayNode list = have.get(field) instanceof ArrayNode a ? a : have.putArray(field);
        for (JsonNode item : w) {
            boolean present = false;
            for (JsonNode h : list) present |= Semantic.equal(h, item);
            if (!present) list.add(item.deepCopy());
        }
    }

    private static void wholeReplace(ObjectNode have, JsonNode want) {
        if (Semantic.equal(have, want)) return;
        have.removeAll();
        have.setAll((ObjectNode) want.deepCopy());
    }
}
