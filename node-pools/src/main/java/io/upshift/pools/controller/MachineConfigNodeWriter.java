package io.upshift.pools.controller;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeBuilder;
import io.upshift.pools.machineconfignode.NodeStatus;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.runtime.kube.MergePatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one MachineConfigNode per node of a pool, named after it, as upstream's operator and node
 * controller do ({@code syncMachineConfigNodes} in pkg/operator/sync.go, {@code
 * UpdateMachineConfigNodeSpecDesiredAnnotation} in pkg/upgrademonitor): created owned by its Node
 * (so that a real API server's garbage collector removes it with the node), its spec naming the
 * node, its pool and the config the node is told ({@value NodeStatus#NOT_YET_SET} before any), that
 * config written before the node is told it; deleted once its node is gone (the embedded API server
 * has no garbage collector) or when the node of that name is another one (another uid). Its status
 * is the node agent's. Spec writes are merge patches conditional on the object as cached; nothing
 * is written for a node while the cache still holds the version the last write was computed from.
 */
final class MachineConfigNodeWriter {
    private static final Logger LOG = LoggerFactory.getLogger(MachineConfigNodeWriter.class);

    /** Stands for "not in the cache" among the versions writes were computed from. */
    private static final String ABSENT = "";

    private final KubernetesClient client;
    private final Function<String, MachineConfigNode> cached;

    /** Per node, the resourceVersion (or {@link #ABSENT}) the last write was computed from. */
    private final Map<String, String> writtenFrom = new ConcurrentHashMap<>();

    /**
     * Per node, the config it was told until the node cache shows it: the caches of nodes and
     * MachineConfigNodes catch up in either order, and a node cache behind would otherwise take the
     * desired config back.
     */
    private final Map<String, String> told = new ConcurrentHashMap<>();

    /**
     * @param cached a node's MachineConfigNode as the controller's cache holds it, or null
     */
    MachineConfigNodeWriter(KubernetesClient client, Function<String, MachineConfigNode> cached) {
        this.client = client;
        this.cached = cached;
    }

    /**
     * Makes the node's MachineConfigNode name {@code pool} and {@code desired} now, on the caller's
     * thread, even while the cache has not seen the last write (then the write is refused as stale,
     * and the next pass makes it good).
     */
    void write(Node node, String pool, String desired) {
        Runnable w = sync(node, pool, desired, false);
        if (w != null) w.run();
    }

    /**
     * The node was told {@code desired} (after {@link #write}): that is its desired config from now
     * on.
     */
    void told(String node, String desired) {
        told.put(node, desired);
    }

    /**
     * The writes that bring every pool member's MachineConfigNode in line with the node as cached,
     * and remove those of nodes that are gone; empty when all agree.
     *
     * @param members each pool's nodes, by pool name
     */
    List<Runnable> sync(
            Map<String, List<Node>> members, List<Node> allNodes, List<MachineConfigNode> all) {
        List<Runnable> writes = new ArrayList<>();
        members.forEach(
                (pool, nodes) -> {
                    for (Node node : nodes) {
                        Runnable w = sync(node, pool, expected(node), true);
                        if (w != null) writes.add(w);
                    }
                });
        Set<String> nodes = ConcurrentHashMap.newKeySet();
        allNodes.forEach(n -> nodes.add(n.getMetadata().getName()));
        for (MachineConfigNode mcn : all) {
            String name = mcn.getMetadata().getName();
            if (!nodes.contains(name)) writes.add(() -> delete(name, "its node is gone"));
        }
        return writes;
    }

    private Runnable sync(Node node, String pool, String desired, boolean waitForCache) {
        String name = node.getMetadata().getName();
        MachineConfigNode mcn = cached.apply(name);
        String version = mcn == null ? ABSENT : mcn.getMetadata().getResourceVersion();
        if (waitForCache && version.equals(writtenFrom.get(name)))
            return null; // the cache has not seen our last write yet
        if (mcn == null) return () -> create(node, pool, desired);
        if (!ownedBy(mcn, node))
            return () ->
                    delete(
                            name,
                            "node "
                                    + name
                                    + " is another node now (uid "
                                    + node.getMetadata().getUid()
                                    + ")");
        var spec = mcn.getSpec();
        if (spec != null
                && spec.getPool() != null
                && pool.equals(spec.getPool().getName())
                && spec.getConfigVersion() != null
                && desired.equals(spec.getConfigVersion().getDesired())) {
            writtenFrom.remove(name);
            return null;
        }
        return () -> {
            MergePatch.against(mcn)
                    .set("spec.node.name", name)
                    .set("spec.pool.name", pool)
                    .set("spec.configVersion.desired", desired)
                    .sendTo(client, mcn);
            writtenFrom.put(name, version);
            LOG.info("machineconfignodes/{}: pool {}, desired config {}", name, pool, desired);
        };
    }

    private void create(Node node, String pool, String desired) {
        String name = node.getMetadata().getName();
        MachineConfigNode mcn =
                new MachineConfigNodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToOwnerReferences(
                                new OwnerReference(
                                        "v1",
                                        null,
                                        null,
                                        "Node",
                                        name,
                                        node.getMetadata().getUid()))
                        .endMetadata()
                        .withNewSpec()
                        .withNewNode(name)
                        .withNewPool(pool)
                        .withNewConfigVersion(desired)
                        .endSpec()
                        .build();
        try {
            client.resources(MachineConfigNode.class).resource(mcn).create();
            LOG.info(
                    "machineconfignodes/{} created: pool {}, desired config {}",
                    name,
                    pool,
                    desired);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409)
                throw e; // there already: the cache was behind, and the next pass compares with it
        }
        writtenFrom.put(name, ABSENT);
    }

    private void delete(String name, String why) {
        writtenFrom.remove(name);
        told.remove(name);
        client.resources(MachineConfigNode.class).withName(name).delete();
        LOG.info("machineconfignodes/{} deleted: {}", name, why);
    }

    private String expected(Node node) {
        String name = node.getMetadata().getName(),
                desired = desiredOf(node),
                toldNow = told.get(name);
        if (toldNow == null) return desired;
        if (!toldNow.equals(desired)) return toldNow;
        told.remove(name);
        return desired;
    }

    /** What the node is told, as its MachineConfigNode's spec names it. */
    static String desiredOf(Node node) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        String desired = a == null ? "" : a.getOrDefault(NodeAnnotations.DESIRED_CONFIG, "");
        return desired.isEmpty() ? NodeStatus.NOT_YET_SET : desired;
    }

    private static boolean ownedBy(MachineConfigNode mcn, Node node) {
        List<OwnerReference> owners = mcn.getMetadata().getOwnerReferences();
        if (owners == null || owners.isEmpty() || node.getMetadata().getUid() == null)
            return true; // made by someone else: left as it is
        return owners.stream()
                .anyMatch(
                        o ->
                                "Node".equals(o.getKind())
                                        && node.getMetadata().getUid().equals(o.getUid()));
    }
}
