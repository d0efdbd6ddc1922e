package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import java.util.List;
import java.util.Optional;

/**
 * Everything the status assessment reads, in the order the API lists it.
 *
 * @param mcoImage the image of container {@code machine-config-operator} in Deployment {@code
 *     openshift-machine-config-operator/machine-config-operator}, or "" when there is none
 * @param alerts the firing alerts, or empty when they could not be read (then health shows no
 *     alerts)
 * @param drainEvents the node agents' {@link DrainBlocks#REASON} events (drains held up by a
 *     disruption budget)
 * @param machineConfigNodes the nodes' MachineConfigNodes, where the cluster has them ({@link
 *     MachineConfigNodes})
 */
public record ClusterState(
        ClusterVersion clusterVersion,
        List<ClusterOperator> operators,
        List<MachineConfigPool> pools,
        List<MachineConfig> machineConfigs,
        List<Node> nodes,
        String mcoImage,
        Optional<List<Alert>> alerts,
        List<Event> drainEvents,
        List<MachineConfigNode> machineConfigNodes) {
    public ClusterState {
        operators = List.copyOf(operators);
        pools = List.copyOf(pools);
        machineConfigs = List.copyOf(machineConfigs);
        nodes = List.copyOf(nodes);
        mcoImage = mcoImage == null ? "" : mcoImage;
        drainEvents = List.copyOf(drainEvents);
        machineConfigNodes = List.copyOf(machineConfigNodes);
    }

    /** A cluster without MachineConfigNodes. */
    public ClusterState(
            ClusterVersion clusterVersion,
            List<ClusterOperator> operators,
            List<MachineConfigPool> pools,
            List<MachineConfig> machineConfigs,
            List<Node> nodes,
            String mcoImage,
            Optional<List<Alert>> alerts,
            List<Event> drainEvents) {
        this(
                clusterVersion,
                operators,
                pools,
                machineConfigs,
                nodes,
                mcoImage,
                alerts,
                drainEvents,
                List.of());
    }

    /** A cluster whose drain events are not known (snapshots, which carry none). */
    public ClusterState(
            ClusterVersion clusterVersion,
            List<ClusterOperator> operators,
            List<MachineConfigPool> pools,
            List<MachineConfig> machineConfigs,
            List<Node> nodes,
            String mcoImage,
            Optional<List<Alert>> alerts) {
        this(
                clusterVersion,
                operators,
                pools,
                machineConfigs,
                nodes,
                mcoImage,
                alerts,
                List.of(),
                List.of());
    }

    /** The same cluster with other alerts. */
    public ClusterState withAlerts(Optional<List<Alert>> other) {
        return new ClusterState(
                clusterVersion,
                operators,
                pools,
                machineConfigs,
                nodes,
                mcoImage,
                other,
                drainEvents,
                machineConfigNodes);
    }
}
