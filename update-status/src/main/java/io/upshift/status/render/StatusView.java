package io.upshift.status.render;

import io.upshift.api.update.ClusterOperatorInsight;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.Informer;
import io.upshift.api.update.Insight;
import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.Pool;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.UpdateStatusStatus;
import java.util.ArrayList;
import java.util.List;

/** The insights of an UpdateStatus grouped the way the status text needs them. */
record StatusView(
        ClusterVersionInsight clusterVersion,
        List<ClusterOperatorInsight> operators,
        PoolView controlPlanePool,
        List<PoolView> workerPools) {

    /** A pool insight with the node insights that belong to it, in display order. */
    record PoolView(String name, PoolInsight pool, List<NodeInsight> nodes) {}

    static StatusView of(UpdateStatusStatus status) {
        if (status == null || status.controlPlane() == null) {
            throw new IllegalArgumentException("the UpdateStatus has no control plane status yet");
        }
        ClusterVersionInsight cv = null;
        List<ClusterOperatorInsight> operators = new ArrayList<>();
        PoolInsight master = null;
        List<NodeInsight> masterNodes = new ArrayList<>();
        for (Informer informer : status.controlPlane().informers()) {
            for (Insight i : informer.insights()) {
                if (i.clusterVersion() != null && cv == null) {
                    cv = i.clusterVersion();
                } else if (i.clusterOperator() != null) {
                    operators.add(i.clusterOperator());
                } else if (i.machineConfigPool() != null) {
                    master = i.machineConfigPool();
                } else if (i.node() != null) {
                    masterNodes.add(i.node());
                }
            }
        }
        if (cv == null) {
            throw new IllegalArgumentException("the UpdateStatus has no ClusterVersion insight");
        }
        List<PoolView> workers = new ArrayList<>();
        for (Pool pool : status.workerPools()) {
            PoolInsight insight = null;
            List<NodeInsight> nodes = new ArrayList<>();
            for (Informer informer : pool.informers()) {
                for (Insight i : informer.insights()) {
                    if (i.machineConfigPool() != null) {
                        insight = i.machineConfigPool();
                    } else if (i.node() != null) {
                        nodes.add(i.node());
                    }
                }
            }
            workers.add(new PoolView(pool.name(), insight, nodes));
        }
        return new StatusView(
                cv,
                operators,
                master == null ? null : new PoolView(master.name(), master, masterNodes),
                workers);
    }

    /** Whether any worker pool with nodes still has nodes to update. */
    boolean workersOutdated() {
        return workerPools.stream()
                .anyMatch(
                        p ->
                                p.pool() != null
                                        && p.pool().count("Total") > 0
                                        && p.pool().count("Outdated") > 0);
    }
}
