package io.upshift.operator.cvo;

import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.api.schema.CrdSchema;
import io.upshift.core.cvo.StatusConditions;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Writes ClusterVersion status: only when it differs from what the cluster has, and only values the ClusterVersion
 * CRD installed in the cluster accepts. Capability names an older CRD's enum does not know (after a rollback) are
 * left out of status and named in a condition instead, so status writes never start failing.
 */
final class StatusWriter {

    static final String CRD = "clusterversions.config.openshift.io";
    private static final ResourceDefinitionContext CV = LiveObjects.context("config.openshift.io/v1", "ClusterVersion", false);
    private static final ResourceDefinitionContext CRDS = LiveObjects.context("apiextensions.k8s.io/v1", "CustomResourceDefinition", false);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final Clock clock;
    private final Consumer<String> log;
    private String crdVersion;
    private CrdSchema schema;
    private Set<String> capabilityEnum;
    final AtomicLong writes = new AtomicLong();

    StatusWriter(KubernetesClient client, Clock clock, Consumer<String> log) {
        this.client = client;
        this.clock = clock;
        this.log = log;
    }

    /** Writes {@code status} onto {@code cv} when it changed; returns the object as written, or {@code cv}. */
    ClusterVersion write(ClusterVersion cv, ClusterVersionStatus status) {
        loadCrd();
        ClusterVersionStatus fitted = fitCapabilities(status);
        if (JSON.valueToTree(fitted).equals(JSON.valueToTree(cv.getStatus()))) return cv;
        ObjectNode next = JSON.valueToTree(cv);
        ObjectNode statusNode = JSON.valueToTree(fitted);
        // The CRD requires completionTime and allows null: an entry in progress says so explicitly.
        statusNode.path("history").forEach(h -> {
            if (!h.has("completionTime")) ((ObjectNode) h).putNull("completionTime");
        });
        // OpenShift's CRDs require availableUpdates (nullable): no answer from the update graph is an explicit null.
        if (!statusNode.has("availableUpdates")) statusNode.putNull("availableUpdates");
        next.set("status", statusNode);
        if (schema != null) {
            List<String> violations = schema.violations(next);
            if (!violations.isEmpty()) {
                log.accept("clusterversion/version: not writing a status the installed CRD rejects: " + violations);
                return cv;
            }
        }
        // Status alone, as a JSON patch: a concurrent change of spec (an administrator's) is never written back.
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", "/status").set("value", statusNode);
        GenericKubernetesResource written = client.genericKubernetesResources(CV).withName("version").subresource("status")
                .patch(PatchContext.of(PatchType.JSON), patch.toString());
        writes.incrementAndGet();
        return JSON.convertValue(written, ClusterVersion.class);
    }

    private ClusterVersionStatus fitCapabilities(ClusterVersionStatus status) {
        if (status.getCapabilities() == null) return status;
        Set<String> dropped = new java.util.TreeSet<>();
        ClusterVersionStatus s = JSON.convertValue(JSON.valueToTree(status), ClusterVersionStatus.class);
        for (List<String> list : capabilityEnum == null ? List.<List<String>>of()
                : List.of(s.getCapabilities().getEnabledCapabilities(), s.getCapabilities().getKnownCapabilities())) {
            if (list == null) continue;
            for (String c : new ArrayList<>(list)) {
                if (!capabilityEnum.contains(c)) {
                    list.remove(c);
                    dropped.add(c);
                }
            }
        }
        String message = dropped.isEmpty() ? "" : "The ClusterVersion CRD installed in the cluster does not accept the capability names "
                + String.join(", ", dropped) + "; they stay as they are in the cluster but are left out of status.capabilities";
        s.setConditions(StatusConditions.set(s.getConditions(), "CapabilitiesReported", dropped.isEmpty() ? "True" : "False",
                dropped.isEmpty() ? "AsExpected" : "RejectedByInstalledCRD", message, clock.instant()));
        return s;
    }

    /** The installed CRD's schema and capability enum, re-read when the CRD changes. */
    private void loadCrd() {
        GenericKubernetesResource crd = client.genericKubernetesResources(CRDS).withName(CRD).get();
        if (crd == null) {
            schema = null;
            capabilityEnum = null;
            crdVersion = null;
            return;
        }
        String rv = crd.getMetadata().getResourceVersion();
        if (rv != null && rv.equals(crdVersion)) return;
        try {
            byte[] bytes = JSON.writeValueAsBytes(crd);
            schema = CrdSchema.of(new ByteArrayInputStream(bytes), "v1");
            JsonNode items = JSON.readTree(bytes).at("/spec/versions").path(0)
                    .at("/schema/openAPIV3Schema/properties/status/properties/capabilities/properties/enabledCapabilities/items/enum");
            capabilityEnum = items instanceof ArrayNode a ? toSet(a) : null;
            crdVersion = rv;
        } catch (java.io.IOException | RuntimeException e) {
            log.accept("customresourcedefinition/" + CRD + ": cannot read its schema, writing unvalidated: " + e.getMessage());
            schema = null;
            capabilityEnum = null;
        }
    }

    private static Set<String> toSet(ArrayNode a) {
        Set<String> s = new HashSet<>();
        a.forEach(n -> s.add(n.asText()));
        return s;
    }

}
