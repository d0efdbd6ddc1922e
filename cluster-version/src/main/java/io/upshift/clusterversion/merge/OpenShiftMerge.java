package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * OpenShift's own kinds with a merge of their own: SecurityContextConstraints, ImageStream,
 * OperatorGroup.
 */
final class OpenShiftMerge {
    private OpenShiftMerge() {}

    /** Top-level fields, each replaced whole. */
    static void securityContextConstraints(ObjectNode e, JsonNode r) {
        for (String f :
                new String[] {
                    "priority",
                    "allowPrivilegedContainer",
                    "allowHostDirVolumePlugin",
                    "allowHostNetwork",
                    "allowHostPorts",
                    "allowHostPID",
                    "allowHostIPC",
                    "readOnlyRootFilesystem",
                    "defaultAddCapabilities",
                    "requiredDropCapabilities",
                    "allowedCapabilities",
                    "volumes",
                    "allowedFlexVolumes",
                    "defaultAllowPrivilegeEscalation",
                    "seLinuxContext",
                    "runAsUser",
                    "fsGroup",
                    "supplementalGroups",
                    "users",
                    "groups",
                    "seccompProfiles",
                    "allowedUnsafeSysctls",
                    "forbiddenSysctls"
                }) {
            Fields.replace(e, r, f);
        }
        Fields.replace(e, r, "allowPrivilegeEscalation");
    }

    /**
     * Tags by name: added when missing, their source and import policy set; tags others added stay.
     */
    static void imageStream(ObjectNode e, JsonNode r) {
        ObjectNode spec = Fields.object(e, "spec");
        JsonNode want = Fields.in(r, "spec");
        Fields.replace(spec, want, "lookupPolicy");
        JsonNode tags = want.get("tags");
        if (tags == null || !tags.isArray()) return;
        ArrayNode have = spec.get("tags") instanceof ArrayNode a ? a : spec.putArray("tags");
        for (JsonNode tag : tags) {
            ObjectNode match = null;
            for (JsonNode h : have)
                if (h.path("name").asText().equals(tag.path("name").asText()))
                    match = (ObjectNode) h;
            if (match == null) {
                have.add(tag.deepCopy());
                continue;
            }
            Fields.replace(match, tag, "importPolicy");
            Fields.replace(match, tag, "from");
        }
    }

    static void operatorGroup(ObjectNode e, JsonNode r) {
        ObjectNode spec = Fields.object(e, "spec");
        JsonNode want = Fields.in(r, "spec");
        Fields.replace(spec, want, "selector");
        Fields.replace(spec, want, "targetNamespaces");
        Fields.replaceIfSet(spec, want, "serviceAccountName");
        Fields.replace(spec, want, "staticProvidedAPIs");
        Fields.replace(spec, want, "upgradeStrategy");
    }
}
