package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.metrics.ConditionTransitions;
import io.upshift.clusterversion.metrics.InstallerSample;
import io.upshift.runtime.kube.Informers;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the metrics are computed from, each from an informer of their own (every replica serves
 * metrics, leader or not, and a scrape costs the API server nothing): the ClusterVersion, the
 * ClusterOperators, and the installer's ConfigMaps. ClusterOperator condition transitions are
 * counted here as the informer sees them; an operator deleted takes its counts with it.
 */
final class MetricsCaches implements ClusterMetrics.Source, AutoCloseable {
    private final Informers informers = new Informers(() -> {});
    private final SharedIndexInformer<ClusterVersion> version;
    private final SharedIndexInformer<ClusterOperator> operators;
    private final SharedIndexInformer<ConfigMap> installer, manifests;
    private final Map<ConditionTransitions.Key, Integer> transitions = new TreeMap<>();

    MetricsCaches(KubernetesClient client) {
        version =
                informers.cache(
                        client.resources(ClusterVersion.class)
                                .withName(ClusterCaches.NAME)
                                .runnableInformer(0));
        operators = informers.cache(client.resources(ClusterOperator.class).runnableInformer(0));
        installer =
                informers.cache(
                        client.configMaps()
                                .inNamespace(InstallerSample.NAMESPACE)
                                .withName(InstallerSample.INSTALLER)
                                .runnableInformer(0));
        manifests =
                informers.cache(
                        client.configMaps()
                                .inNamespace(InstallerSample.NAMESPACE)
                                .withName(InstallerSample.MANIFESTS)
                                .runnableInformer(0));
        operators.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(ClusterOperator obj) {}

                    @Override
                    public void onUpdate(ClusterOperator before, ClusterOperator after) {
                        List<String> changed =
                                ConditionTransitions.between(
                                        before.getStatus() == null
                                                ? null
                                                : before.getStatus().getConditions(),
                                        after.getStatus() == null
                                                ? null
                                                : after.getStatus().getConditions());
                        synchronized (transitions) {
                            for (String type : changed)
                                transitions.merge(
                                        new ConditionTransitions.Key(
                                                after.getMetadata().getName(), type),
                                        1,
                                        Integer::sum);
                        }
                    }

                    @Override
                    public void onDelete(ClusterOperator obj, boolean deletedFinalStateUnknown) {
                        synchronized (transitions) {
                            transitions
                                    .keySet()
                                    .removeIf(
                                            k -> k.operator().equals(obj.getMetadata().getName()));
                        }
                    }
                });
    }

    /** Starts the informers and waits until their caches are filled. */
    void start() {
        informers.start();
    }

    @Override
    public ClusterVersion clusterVersion() {
        return version.getStore().getByKey(ClusterCaches.NAME);
    }

    @Override
    public List<ClusterOperator> operators() {
        return Informers.byName(operators);
    }

    @Override
    public Map<ConditionTransitions.Key, Integer> transitions() {
        synchronized (transitions) {
            return new TreeMap<>(transitions);
        }
    }

    @Override
    public Map<String, String> installer() {
        return data(
                installer
                        .getStore()
                        .getByKey(InstallerSample.NAMESPACE + "/" + InstallerSample.INSTALLER));
    }

    @Override
    public Map<String, String> manifests() {
        return data(
                manifests
                        .getStore()
                        .getByKey(InstallerSample.NAMESPACE + "/" + InstallerSample.MANIFESTS));
    }

    private static Map<String, String> data(ConfigMap cm) {
        if (cm == null) return null;
        return cm.getData() == null ? Map.of() : cm.getData();
    }

    @Override
    public void close() {
        informers.close();
    }
}
