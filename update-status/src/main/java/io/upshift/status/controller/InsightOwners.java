package io.upshift.status.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.api.update.insight.ClusterOperatorProgressInsight;
import io.upshift.api.update.insight.ClusterVersionProgressInsight;
import io.upshift.api.update.insight.MachineConfigPoolProgressInsight;
import io.upshift.api.update.insight.NodeProgressInsight;
import java.util.List;

/**
 * Who owns an insight object, so that Kubernetes' garbage collector deletes it with its subject:
 * the Node, MachineConfigPool, ClusterOperator or ClusterVersion it is about (all cluster-scoped,
 * as an owner of a cluster-scoped object must be), and for a health insight the UpdateStatus.
 * Subjects are looked up in the controller's caches; one not found there owns nothing.
 */
final class InsightOwners {
    private final SharedIndexInformer<? extends HasMetadata> nodes;
    private final SharedIndexInformer<? extends HasMetadata> pools;
    private final SharedIndexInformer<? extends HasMetadata> operators;
    private final SharedIndexInformer<? extends HasMetadata> versions;

    InsightOwners(
            SharedIndexInformer<? extends HasMetadata> nodes,
            SharedIndexInformer<? extends HasMetadata> pools,
            SharedIndexInformer<? extends HasMetadata> operators,
            SharedIndexInformer<? extends HasMetadata> versions) {
        this.nodes = nodes;
        this.pools = pools;
        this.operators = operators;
        this.versions = versions;
    }

    /**
     * Sets each object's owner references: its subject, or {@code updateStatus} for health
     * insights.
     */
    void own(List<HasMetadata> objects, HasMetadata updateStatus) {
        for (HasMetadata o : objects) {
            String name = o.getMetadata().getName();
            HasMetadata owner;
            if (o instanceof NodeProgressInsight) {
                owner = nodes.getIndexer().getByKey(name);
            } else if (o instanceof MachineConfigPoolProgressInsight) {
                owner = pools.getIndexer().getByKey(name);
            } else if (o instanceof ClusterOperatorProgressInsight) {
                owner = operators.getIndexer().getByKey(name);
            } else if (o instanceof ClusterVersionProgressInsight) {
                owner = versions.getIndexer().getByKey(name);
            } else {
                owner = updateStatus;
            }
            o.getMetadata()
                    .setOwnerReferences(
                            owner == null || owner.getMetadata().getUid() == null
                                    ? null
                                    : List.of(reference(owner)));
        }
    }

    private static OwnerReference reference(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .build();
    }
}
