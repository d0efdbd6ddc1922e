package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.upshift.api.json.Mappers;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.PoolGate;
import io.upshift.pools.model.RequiredPools;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the machine-config ClusterOperator's status from the pools, when it differs from the
 * cached one, as an update conditional on the ClusterOperator as read (a 409 means the next pass
 * computes from the newer one). Right after a write the cache may not have it yet: nothing is
 * written while the cache still holds the version the write was made against.
 */
final class OperatorStatusWriter {
    static final String NAME = "machine-config";
    private static final Logger LOG = LoggerFactory.getLogger(OperatorStatusWriter.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final String releaseVersion;
    private final Supplier<ClusterOperator> cached;
    private String writtenFrom = "";

    /**
     * Since when the required pools hold the version back (see {@link RequiredPools}); null while
     * they do not.
     */
    private Instant syncingSince;

    /**
     * @param cached the ClusterOperator as the controller's cache holds it, or null
     */
    OperatorStatusWriter(
            KubernetesClient client, String releaseVersion, Supplier<ClusterOperator> cached) {
        this.client = client;
        this.releaseVersion = releaseVersion;
        this.cached = cached;
    }

    /**
     * @param apiServerVersion the API server's version, "" when unknown
     * @param controllerFailure why the controller cannot render its release's base configs, or null
     */
    void write(
            List<PoolGate.Pool> pools,
            String apiServerVersion,
            String controllerFailure,
            Instant now) {
        syncingSince =
                RequiredPools.check(pools).synced()
                        ? null
                        : syncingSince == null ? now : syncingSince;
        ClusterOperator co = cached.get();
        if (co == null) {
            try {
                co =
                        client.resources(ClusterOperator.class)
                                .resource(
                                        new ClusterOperatorBuilder()
                                                .withNewMetadata()
                                                .withName(NAME)
                                                .endMetadata()
                                                .withNewSpec()
                                                .endSpec()
                                                .build())
                                .create();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
                co = client.resources(ClusterOperator.class).withName(NAME).get();
            }
        }
        if (writtenFrom.equals(co.getMetadata().getResourceVersion())) return;
        ClusterOperatorStatus status =
                PoolGate.status(
                        releaseVersion,
                        apiServerVersion,
                        co.getStatus(),
                        pools,
                        controllerFailure,
                        syncingSince,
                        now);
        if (JSON.valueToTree(status).equals(JSON.valueToTree(co.getStatus()))) return;
        ClusterOperator next = JSON.convertValue(JSON.valueToTree(co), ClusterOperator.class);
        next.setStatus(status);
        client.resource(next).updateStatus();
        writtenFrom = co.getMetadata().getResourceVersion();
        ClusterOperatorStatusCondition upgradeable =
                Conditions.CLUSTER.find(status.getConditions(), "Upgradeable");
        ClusterOperatorStatusCondition degraded =
                Conditions.CLUSTER.find(status.getConditions(), "Degraded");
        LOG.info(
                "clusteroperators/{}: version {}, Upgradeable={}{}{}",
                NAME,
                status.getVersions().get(0).getVersion(),
                upgradeable.getStatus(),
                upgradeable.getMessage() == null ? "" : ": " + upgradeable.getMessage(),
                "True".equals(degraded.getStatus())
                        ? "; Degraded=True: " + degraded.getMessage()
                        : "");
    }
}
