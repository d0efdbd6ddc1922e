package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.PoolMembers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a real cluster's workload controllers and scheduler do with the pods a drain evicts, which
 * the embedded API server does not: a pod of a ReplicaSet, StatefulSet or other controller that is
 * gone is made again, on a schedulable node of the same pool (the one with fewest pods of its
 * controller), running and ready at once. A pod of no controller is not made again, as in a real
 * cluster. Without this, a budget that allows one disruption would refuse the next drain for ever.
 */
final class Workloads implements AutoCloseable {
    private static final Set<String> NOT_REPLACED = Set.of("DaemonSet", "Node");

    private final KubernetesClient client;
    private final Map<String, Pod> known = new HashMap<>();
    private final Thread thread;
    private volatile boolean stopped;
    private int made;

    Workloads(KubernetesClient client) {
        this.client = client;
        this.thread = new Thread(this::run, "rehearsal-workloads");
        this.thread.setDaemon(true);
    }

    Workloads start() {
        thread.start();
        return this;
    }

    private void run() {
        while (!stopped) {
            try {
                tick();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (KubernetesClientException e) {
                // the embedded server is shared: try again on the next tick
            }
        }
    }

    void tick() {
        Map<String, Pod> now = new HashMap<>();
        for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
            if (p.getMetadata().getDeletionTimestamp() == null) now.put(key(p), p);
        }
        for (Map.Entry<String, Pod> e : known.entrySet()) {
            if (now.containsKey(e.getKey())) continue;
            OwnerReference owner = controller(e.getValue());
            if (owner == null || NOT_REPLACED.contains(owner.getKind())) continue;
            Pod again = replacement(e.getValue(), owner, now.values());
            if (again != null) now.put(key(again), again);
        }
        known.clear();
        known.putAll(now);
    }

    private Pod replacement(Pod gone, OwnerReference owner, Collection<Pod> pods) {
        String node = place(gone, owner, pods);
        if (node == null) return null;
        String name =
                owner.getKind().equals("StatefulSet")
                        ? gone.getMetadata().getName()
                        : gone.getMetadata().getName() + "-r" + ++made;
        Pod pod =
                new PodBuilder(SeededCluster.fresh(gone))
                        .editMetadata()
                        .withName(name)
                        .withCreationTimestamp(null)
                        .endMetadata()
                        .editSpec()
                        .withNodeName(node)
                        .endSpec()
                        .withStatus(
                                new PodStatusBuilder()
                                        .withPhase("Running")
                                        .withConditions(
                                                new io.fabric8.kubernetes.api.model
                                                                .PodConditionBuilder()
                                                        .withType("Ready")
                                                        .withStatus("True")
                                                        .build())
                                        .build())
                        .build();
        try {
            return client.pods()
                    .inNamespace(gone.getMetadata().getNamespace())
                    .resource(pod)
                    .create();
        } catch (KubernetesClientException e) {
            return null; // a StatefulSet's pod whose name is not free yet: next tick
        }
    }

    /** A schedulable node of the gone pod's pool, with the fewest pods of its controller. */
    private String place(Pod gone, OwnerReference owner, Collection<Pod> pods) {
        List<Node> nodes = client.nodes().list().getItems();
        List<MachineConfigPool> pools = client.resources(MachineConfigPool.class).list().getItems();
        Map<String, List<Node>> members = PoolMembers.assign(pools, nodes);
        List<Node> candidates = nodes;
        for (List<Node> pool : members.values()) {
            if (pool.stream()
                    .anyMatch(n -> n.getMetadata().getName().equals(gone.getSpec().getNodeName())))
                candidates = pool;
        }
        List<Node> schedulable = new ArrayList<>();
        for (Node n : candidates)
            if (n.getSpec() == null || !Boolean.TRUE.equals(n.getSpec().getUnschedulable()))
                schedulable.add(n);
        return schedulable.stream()
                .min(
                        Comparator.comparing(
                                        (Node n) ->
                                                pods.stream()
                                                        .filter(
                                                                p ->
                                                                        n.getMetadata()
                                                                                        .getName()
                                                                                        .equals(
                                                                                                p.getSpec()
                                                                                                        .getNodeName())
                                                                                && owner.equals(
                                                                                        controller(
                                                                                                p)))
                                                        .count())
                                .thenComparing(n -> n.getMetadata().getName()))
                .map(n -> n.getMetadata().getName())
                .orElse(null);
    }

    private static OwnerReference controller(Pod p) {
        List<OwnerReference> owners = p.getMetadata().getOwnerReferences();
        if (owners == null) return null;
        return owners.stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .findFirst()
                .orElse(owners.isEmpty() ? null : owners.get(0));
    }

    private static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
