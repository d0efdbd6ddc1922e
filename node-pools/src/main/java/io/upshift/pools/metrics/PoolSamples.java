package io.upshift.pools.metrics;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.upshift.base.kube.LabelSelectors;
import io.upshift.pools.model.DrainEvents;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.RequiredPools;
import io.upshift.pools.model.RolloutHold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The pool controller's rows ({@link ControllerFamilies}) from the pools and nodes it caches. */
public final class PoolSamples {
    private PoolSamples() {}

    public static List<Row> of(List<MachineConfigPool> pools, List<Node> nodes) {
        List<Row> rows = new ArrayList<>();
        for (Node n : nodes) {
            String name = n.getMetadata().getName();
            Map<String, String> a = map(n.getMetadata().getAnnotations());
            boolean drainFailed =
                    NodeAnnotations.DEGRADED.equals(a.get(NodeAnnotations.STATE))
                            && DrainEvents.isDrainFailure(a.get(NodeAnnotations.REASON));
            rows.add(ControllerFamilies.DRAIN_ERR.row(drainFailed ? 1 : 0, name));
            rows.add(ControllerFamilies.POOL_ALERT.row(overlapping(pools, n) ? 1 : 0, name));
        }
        for (MachineConfigPool p : pools) {
            String name = p.getMetadata().getName();
            MachineConfigPoolStatus s = p.getStatus();
            rows.add(
                    ControllerFamilies.MACHINE_COUNT.row(
                            count(s == null ? null : s.getMachineCount()), name));
            rows.add(
                    ControllerFamilies.UPDATED_MACHINE_COUNT.row(
                            count(s == null ? null : s.getUpdatedMachineCount()), name));
            rows.add(
                    ControllerFamilies.DEGRADED_MACHINE_COUNT.row(
                            count(s == null ? null : s.getDegradedMachineCount()), name));
            rows.add(
                    ControllerFamilies.UNAVAILABLE_MACHINE_COUNT.row(
                            count(s == null ? null : s.getUnavailableMachineCount()), name));
            boolean paused = p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getPaused());
            boolean required = map(p.getMetadata().getLabels()).containsKey(RequiredPools.LABEL);
            rows.add(
                    ControllerFamilies.POOL_PAUSED.row(
                            paused ? 1 : 0, name, String.valueOf(required)));
            String held = RolloutHold.reasonIn(s);
            rows.add(ControllerFamilies.POOL_ROLLOUT_HELD.row(held.isEmpty() ? 0 : 1, name, held));
        }
        return rows;
    }

    public static String render(List<MachineConfigPool> pools, List<Node> nodes) {
        return Exposition.render(ControllerFamilies.ALL, of(pools, nodes));
    }

    /** More than one pool besides worker selects the node (custom pools are made of workers). */
    static boolean overlapping(List<MachineConfigPool> pools, Node n) {
        Map<String, String> labels = map(n.getMetadata().getLabels());
        long selecting =
                pools.stream()
                        .filter(p -> !"worker".equals(p.getMetadata().getName()))
                        .filter(p -> p.getSpec() != null && p.getSpec().getNodeSelector() != null)
                        .filter(p -> LabelSelectors.matches(p.getSpec().getNodeSelector(), labels))
                        .count();
        return selecting > 1;
    }

    private static double count(Number n) {
        return n == null ? 0 : n.doubleValue();
    }

    private static Map<String, String> map(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
