package io.upshift.operator.pools;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.upshift.core.pools.PoolGate;
import io.upshift.operator.cluster.JsonPatch;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes the machine-config ClusterOperator's status from the pools, when it changed. */
final class OperatorStatusWriter {
    static final String NAME = "machine-config";
    private static final Logger LOG = LoggerFactory.getLogger(OperatorStatusWriter.class);
    private static final ObjectMapper JSON = Serialization.jsonMapper();

    private final KubernetesClient client;
    private final String releaseVersion;

    OperatorStatusWriter(KubernetesClient client, String releaseVersion) {
        this.client = client;
        this.releaseVersion = releaseVersion;
    }

    void write(List<PoolGate.Pool> pools, Instant now) {
        ClusterOperator co = client.resources(ClusterOperator.class).withName(NAME).get();
        if (co == null) {
            try {
                co = client.resources(ClusterOperator.class).resource(new ClusterOperatorBuilder().withNewMetadata().withName(NAME)
                        .endMetadata().withNewSpec().endSpec().build()).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
                co = client.resources(ClusterOperator.class).withName(NAME).get();
            }
        }
        ClusterOperatorStatus status = PoolGate.status(releaseVersion, co.getStatus(), pools, now);
        if (JSON.valueToTree(status).equals(JSON.valueToTree(co.getStatus()))) return;
        client.resources(ClusterOperator.class).withName(NAME).subresource("status")
                .patch(JsonPatch.CONTEXT, new JsonPatch(co).set("/status", status).toString());
        String upgradeable = status.getConditions().stream().filter(c -> "Upgradeable".equals(c.getType()))
                .map(c -> c.getStatus() + (c.getMessage() == null ? "" : ": " + c.getMessage())).findFirst().orElse("");
        LOG.info("clusteroperators/{}: version {}, Upgradeable={}", NAME, status.getVersions().get(0).getVersion(), upgradeable);
    }
}
