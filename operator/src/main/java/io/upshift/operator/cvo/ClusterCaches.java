package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.operator.cluster.Informers;
import java.util.List;

/**
 * What the cluster-version controller reads besides the payload's objects, each from an informer: the ClusterVersion
 * {@code version}, the ClusterOperators (for Upgradeable) and the installed ClusterVersion CRD (what status it
 * accepts). Once the caches are filled, a change of the ClusterVersion or the CRD calls {@code onChange}, a change of a
 * ClusterOperator {@code onOperatorChange}.
 */
final class ClusterCaches implements AutoCloseable {
    static final String NAME = "version";
    static final String CRD = "clusterversions.config.openshift.io";
    /** The key {@link io.upshift.operator.cluster.Changes} knows the ClusterVersion by. */
    static final String KEY = io.upshift.operator.cluster.Changes.key("config.openshift.io/v1", "ClusterVersion", "", NAME);

    private final Informers informers;
    private final Informers operatorInformers;
    private final SharedIndexInformer<ClusterVersion> version;
    private final SharedIndexInformer<ClusterOperator> operators;
    private final SharedIndexInformer<CustomResourceDefinition> crd;

    ClusterCaches(KubernetesClient client, Runnable onChange, Runnable onOperatorChange) {
        informers = new Informers(onChange);
        operatorInformers = new Informers(onOperatorChange);
        version = informers.add(client.resources(ClusterVersion.class).withName(NAME).runnableInformer(0));
        operators = operatorInformers.add(client.resources(ClusterOperator.class).runnableInformer(0));
        crd = informers.add(client.apiextensions().v1().customResourceDefinitions().withName(CRD).runnableInformer(0));
    }

    /** Starts the informers and waits until their caches are filled. */
    void start() {
        informers.start();
        operatorInformers.start();
    }

    /** The ClusterVersion {@code version}, or null when there is none. */
    ClusterVersion clusterVersion() {
        return version.getStore().getByKey(NAME);
    }

    List<ClusterOperator> operators() {
        return Informers.byName(operators);
    }

    /** The ClusterVersion CRD installed in the cluster, or null. */
    CustomResourceDefinition clusterVersionCrd() {
        return crd.getStore().getByKey(CRD);
    }

    @Override
    public void close() {
        informers.close();
        operatorInformers.close();
    }
}
