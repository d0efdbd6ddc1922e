package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * How a manifest is brought onto the live object, kind by kind, as the cluster-version operator's
 * {@code lib/resourcemerge} does: the live object is changed only where the manifest's kind says
 * the payload owns it, so fields the API server defaults and fields other writers own survive. What
 * the result removes follows upstream: containers, volumes, ports, env and other whole-replaced
 * fields the manifest no longer sets go; labels, annotations, ConfigMap and Secret keys,
 * tolerations and nodeSelector keys are only ever added or changed.
 *
 * <p>The API server's defaults are filled in on both sides first ({@link ServerDefaults}), so that
 * a field one side leaves to its default compares equal to the default.
 *
 * <p>Fields the API server will not change once set (selectors, a Service's cluster IP, a claim's
 * spec...) keep their live value whatever the manifest says ({@link ImmutableFields}); {@link
 * Merged#held} names them.
 *
 * <p>Kinds without a merge of their own (StatefulSets, custom resources...) have each top-level
 * field the manifest sets replaced whole, and metadata merged as above. (Upstream's generic merge
 * also replaces labels and annotations whole and rewrites on any field only the live object has,
 * which loops on server defaults.)
 */
public final class ResourceMerge {
    private static final Set<String> NOT_CONTENT =
            Set.of("apiVersion", "kind", "metadata", "status");

    /**
     * The live object with the manifest merged in, the first path where it differs from the live
     * one (null: nothing to write), and the immutable fields where the manifest asks for another
     * value than the live one, which stays.
     */
    public record Merged(ObjectNode object, String difference, List<String> held) {
        public Merged(ObjectNode object, String difference) {
            this(object, difference, List.of());
        }

        public boolean changed() {
            return difference != null;
        }
    }

    private ResourceMerge() {}

    public static Merged merge(JsonNode live, JsonNode manifest) {
        ObjectNode required = required(manifest);
        String apiVersion = required.path("apiVersion").asText();
        String groupKind =
                (apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "")
                        + "/"
                        + required.path("kind").asText();
        ServerDefaults.apply(groupKind, required);
        ObjectNode defaulted = ServerDefaults.apply(groupKind, live.deepCopy());
        ObjectNode existing = defaulted.deepCopy();
        ObjectMetaMerge.ensure(
                Fields.object(existing, "metadata"), Fields.in(required, "metadata"));
        JsonNode spec = Fields.in(required, "spec");
        switch (groupKind) {
            case "/Namespace", "config.openshift.io/ClusterOperator" -> {}
            case "/ServiceAccount" ->
                    Fields.replacePresent(existing, required, "automountServiceAccountToken");
            // keys others add (CA bundles injected into a ConfigMap, say) stay; a Secret's too,
            // unlike upstream's
            // generic merge, which took its data whole
            case "/ConfigMap", "/Secret" -> {
                Fields.mergeMap(existing, required, "data");
                Fields.mergeMap(existing, required, "binaryData");
                Fields.replaceIfSet(existing, required, "type");
                Fields.replaceIfSet(existing, required, "immutable");
            }
            case "/Service" -> ServiceMerge.service(Fields.object(existing, "spec"), spec);
            case "apps/Deployment" ->
                    WorkloadMerge.deployment(Fields.object(existing, "spec"), spec);
            case "apps/DaemonSet" -> WorkloadMerge.daemonSet(Fields.object(existing, "spec"), spec);
            case "batch/Job" -> WorkloadMerge.job(Fields.object(existing, "spec"), spec);
            case "batch/CronJob" -> WorkloadMerge.cronJob(Fields.object(existing, "spec"), spec);
            case "rbac.authorization.k8s.io/ClusterRole" ->
                    RbacMerge.clusterRole(existing, required);
            case "rbac.authorization.k8s.io/Role" -> RbacMerge.role(existing, required);
            case "rbac.authorization.k8s.io/ClusterRoleBinding",
                    "rbac.authorization.k8s.io/RoleBinding" ->
                    RbacMerge.binding(existing, required);
            case "apiextensions.k8s.io/CustomResourceDefinition" ->
                    ApiExtensionsMerge.customResourceDefinition(existing, required);
            case "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
                    "admissionregistration.k8s.io/MutatingWebhookConfiguration" ->
                    ApiExtensionsMerge.webhookConfiguration(existing, required);
            case "security.openshift.io/SecurityContextConstraints" ->
                    OpenShiftMerge.securityContextConstraints(existing, required);
            case "image.openshift.io/ImageStream" -> OpenShiftMerge.imageStream(existing, required);
            case "operators.coreos.com/OperatorGroup" ->
                    OpenShiftMerge.operatorGroup(existing, required);
            default -> generic(existing, required);
        }
        List<String> held = ImmutableFields.hold(groupKind, defaulted, existing, required);
        String difference = Semantic.difference(defaulted, existing, "");
        ImmutableFields.asStored(groupKind, live, existing);
        return new Merged(existing, difference, held);
    }

    /** Each top-level field the manifest sets, replaced whole. */
    private static void generic(ObjectNode existing, JsonNode required) {
        for (Iterator<String> it = required.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!NOT_CONTENT.contains(field)) Fields.replace(existing, required, field);
        }
    }

    /**
     * The manifest as written: without status (the payload never writes it), and a Secret's
     * write-only {@code stringData} in the form the API server keeps it, base64 {@code data}.
     */
    public static ObjectNode required(JsonNode manifest) {
        ObjectNode o = manifest.deepCopy();
        o.remove("status");
        if ("Secret".equals(o.path("kind").asText())
                && "v1".equals(o.path("apiVersion").asText())
                && o.get("stringData") instanceof ObjectNode plain) {
            ObjectNode data = o.get("data") instanceof ObjectNode d ? d : o.putObject("data");
            plain.fields()
                    .forEachRemaining(
                            f ->
                                    data.put(
                                            f.getKey(),
                                            Base64.getEncoder()
                                                    .encodeToString(
                                                            f.getValue()
                                                                    .asText()
                                                                    .getBytes(
                                                                            StandardCharsets
                                                                                    .UTF_8))));
            o.remove("stringData");
        }
        return o;
    }
}
