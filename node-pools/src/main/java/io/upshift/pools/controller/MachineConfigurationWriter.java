package io.upshift.pools.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.api.json.Mappers;
import io.upshift.pools.disruption.DisruptionPolicies;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the cluster's MachineConfiguration as upstream's operator does ({@code
 * syncMachineConfiguration}): creates {@code cluster} when it is missing (managementState Managed),
 * and writes into its status the node disruption policies in force, the defaults merged with its
 * spec ({@code status.nodeDisruptionPolicyStatus.clusterPolicies}), with the generation they were
 * computed from. Written only when they differ, as an update conditional on the object as cached;
 * nothing is written while the cache still holds the version the last write was made against.
 */
final class MachineConfigurationWriter {
    private static final Logger LOG = LoggerFactory.getLogger(MachineConfigurationWriter.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final Supplier<GenericKubernetesResource> cached;
    private String writtenFrom = "";

    /**
     * @param cached the MachineConfiguration as the controller's cache holds it, or null
     */
    MachineConfigurationWriter(
            KubernetesClient client, Supplier<GenericKubernetesResource> cached) {
        this.client = client;
        this.cached = cached;
    }

    void write() {
        GenericKubernetesResource mc = cached.get();
        if (mc == null) mc = create();
        if (writtenFrom.equals(mc.getMetadata().getResourceVersion())) return;
        DisruptionPolicies policies;
        try {
            policies = MachineConfigurations.policies(mc);
        } catch (IllegalArgumentException e) {
            LOG.warn(
                    "machineconfigurations/{}: spec.nodeDisruptionPolicy not used: {}",
                    MachineConfigurations.NAME,
                    e.getMessage());
            return;
        }
        ObjectNode tree = JSON.valueToTree(mc);
        JsonNode before = tree.path("status");
        ObjectNode status = before.isObject() ? before.deepCopy() : JSON.createObjectNode();
        status.putObject("nodeDisruptionPolicyStatus").set("clusterPolicies", policies.toJson());
        if (mc.getMetadata().getGeneration() != null)
            status.put("observedGeneration", mc.getMetadata().getGeneration());
        if (canonical(status).equals(canonical(before))) return;
        tree.set("status", status);
        client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                .resource(JSON.convertValue(tree, GenericKubernetesResource.class))
                .updateStatus();
        writtenFrom = mc.getMetadata().getResourceVersion();
        LOG.info(
                "machineconfigurations/{}: node disruption policies: {} files, {} units",
                MachineConfigurations.NAME,
                policies.files().size(),
                policies.units().size());
    }

    /**
     * Through text, so that a generation read as an int and one written as a long compare equal.
     */
    private static JsonNode canonical(JsonNode node) {
        try {
            return JSON.readTree(JSON.writeValueAsString(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private GenericKubernetesResource create() {
        GenericKubernetesResource mc = new GenericKubernetesResource();
        mc.setApiVersion("operator.openshift.io/v1");
        mc.setKind("MachineConfiguration");
        mc.setMetadata(new ObjectMetaBuilder().withName(MachineConfigurations.NAME).build());
        mc.setAdditionalProperty("spec", Map.of("managementState", "Managed"));
        try {
            GenericKubernetesResource created =
                    client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                            .resource(mc)
                            .create();
            LOG.info("machineconfigurations/{} created", MachineConfigurations.NAME);
            return created;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e; // there already: the cache was behind
            return client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                    .withName(MachineConfigurations.NAME)
                    .get();
        }
    }
}
