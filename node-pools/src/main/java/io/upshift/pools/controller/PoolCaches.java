package io.upshift.pools.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.HookJob;
import io.upshift.runtime.kube.Informers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the pool controller reads, each from an informer made with the controller and started
 * by {@link #start()}: the MachineConfigPools, MachineConfigs and Nodes; the machine-config
 * ClusterOperator and the MachineConfiguration {@code cluster} it reports into; the
 * MachineConfigNodes; its release's templates and OS image ConfigMaps; the ConfigMaps of its
 * namespace (the pools' hook templates) and the hooks' Jobs there; and the cluster's config objects
 * templates read ({@link ClusterConfigs}). A change of any of them asks for a pass, except the
 * ClusterOperator (the controller's own writes) and the MachineConfigNodes (the agents report into
 * them often): those are read on the next pass; only a MachineConfigNode deleted asks for one.
 */
final class PoolCaches implements AutoCloseable {
    private final Informers informers;
    private final SharedIndexInformer<MachineConfigPool> pools;
    private final SharedIndexInformer<MachineConfig> configs;
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<ClusterOperator> operator;
    private final SharedIndexInformer<GenericKubernetesResource> machineConfiguration;
    private final SharedIndexInformer<MachineConfigNode> machineConfigNodes;
    private final SharedIndexInformer<ConfigMap> templates;
    private final SharedIndexInformer<ConfigMap> osImages;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<ConfigMap> configMaps;
    private final SharedIndexInformer<Job> hookJobs;
    private final ClusterConfigs cluster;

    /**
     * @param namespace where the release's templates and OS image ConfigMaps are
     */
    PoolCaches(KubernetesClient client, String namespace, Runnable onChange) {
        informers = new Informers(onChange);
        pools = informers.add(client.resources(MachineConfigPool.class).runnableInformer(0));
        configs = informers.add(client.resources(MachineConfig.class).runnableInformer(0));
        nodes = informers.add(client.nodes().runnableInformer(0));
        operator =
                informers.cache(
                        client.resources(ClusterOperator.class)
                                .withName(OperatorStatusWriter.NAME)
                                .runnableInformer(0));
        machineConfiguration =
                informers.add(
                        client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                                .withName(MachineConfigurations.NAME)
                                .runnableInformer(0));
        templates =
                informers.add(
                        client.configMaps()
                                .inNamespace(namespace)
                                .withName(BaseConfigSync.TEMPLATES)
                                .runnableInformer(0));
        osImages =
                informers.add(
                        client.configMaps()
                                .inNamespace(namespace)
                                .withName(BaseConfigSync.OS_IMAGE_URL)
                                .runnableInformer(0));
        // the pools' health gates match pods of every namespace (HealthGates leaves out finished
        // ones): a pod starting or ending asks for a pass
        pods = informers.add(client.pods().inAnyNamespace().runnableInformer(0));
        // the pools' hooks: their templates' ConfigMaps and their Jobs, in the controller's
        // namespace (a Job finishing asks for a pass)
        configMaps = informers.add(client.configMaps().inNamespace(namespace).runnableInformer(0));
        hookJobs =
                informers.add(
                        client.batch()
                                .v1()
                                .jobs()
                                .inNamespace(namespace)
                                .withLabel(HookJob.LABEL)
                                .runnableInformer(0));
        cluster = new ClusterConfigs(client, informers);
        machineConfigNodes =
                informers.cache(client.resources(MachineConfigNode.class).runnableInformer(0));
        machineConfigNodes.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(MachineConfigNode mcn) {}

                    @Override
                    public void onUpdate(MachineConfigNode before, MachineConfigNode mcn) {}

                    @Override
                    public void onDelete(MachineConfigNode mcn, boolean finalStateUnknown) {
                        onChange.run(); // made anew at once: its agent may be mid-update
                    }
                });
    }

    /** What a pass reads at its start, each list in name order. */
    record Snapshot(
            List<MachineConfigPool> pools,
            List<MachineConfig> configs,
            List<Node> nodes,
            List<MachineConfigNode> machineConfigNodes,
            List<Pod> pods,
            Map<String, ConfigMap> configMaps,
            Map<String, Job> hookJobs) {}

    /** Starts every informer and waits until their caches are filled. */
    void start() {
        informers.start();
    }

    int size() {
        return informers.size();
    }

    Snapshot read() {
        return new Snapshot(
                Informers.byName(pools),
                Informers.byName(configs),
                Informers.byName(nodes),
                Informers.byName(machineConfigNodes),
                pods.getIndexer().list(),
                byName(configMaps),
                byName(hookJobs));
    }

    /** The machine-config ClusterOperator, or null. */
    ClusterOperator operator() {
        return first(operator);
    }

    /** The MachineConfiguration {@code cluster}, or null. */
    GenericKubernetesResource machineConfiguration() {
        return first(machineConfiguration);
    }

    /** The node's MachineConfigNode, or null. */
    MachineConfigNode machineConfigNode(String node) {
        return machineConfigNodes.getIndexer().getByKey(node);
    }

    /** The release's templates ConfigMap, or null. */
    ConfigMap templates() {
        return first(templates);
    }

    /** The release's OS image ConfigMap, or null. */
    ConfigMap osImages() {
        return first(osImages);
    }

    ClusterConfigs cluster() {
        return cluster;
    }

    private static <T extends HasMetadata> Map<String, T> byName(SharedIndexInformer<T> informer) {
        Map<String, T> out = new HashMap<>();
        for (T item : informer.getIndexer().list()) out.put(item.getMetadata().getName(), item);
        return out;
    }

    private static <T> T first(SharedIndexInformer<T> informer) {
        return informer.getIndexer().list().stream().findFirst().orElse(null);
    }

    @Override
    public void close() {
        informers.close();
    }
}
