package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.api.json.Mappers;
import io.upshift.pools.disruption.DisruptionPolicies;

/**
 * The cluster's {@code operator.openshift.io/v1} MachineConfiguration, read as a generic resource
 * (the fabric8 models Upshift uses do not have it): its name, and the node disruption policies it
 * sets.
 */
public final class MachineConfigurations {
    /** The one MachineConfiguration the machine-config operator reads. */
    public static final String NAME = "cluster";

    public static final ResourceDefinitionContext CONTEXT =
            new ResourceDefinitionContext.Builder()
                    .withGroup("operator.openshift.io")
                    .withVersion("v1")
                    .withKind("MachineConfiguration")
                    .withPlural("machineconfigurations")
                    .withNamespaced(false)
                    .build();

    private MachineConfigurations() {}

    /**
     * The default policies with the object's {@code spec.nodeDisruptionPolicy} laid over them; the
     * defaults when there is no object.
     *
     * @throws IllegalArgumentException when the spec names an action the API does not know
     */
    public static DisruptionPolicies policies(GenericKubernetesResource mc) {
        return DisruptionPolicies.merge(tree(mc).path("spec").path("nodeDisruptionPolicy"));
    }

    public static JsonNode tree(GenericKubernetesResource mc) {
        return mc == null ? Mappers.JSON.missingNode() : Mappers.JSON.valueToTree(mc);
    }
}
