package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.core.cvo.AdminGates;
import io.upshift.operator.cluster.Informers;
import java.util.List;
import java.util.Map;

/**
 * What the cluster-version controller reads besides the payload's objects, each from an informer: the ClusterVersion
 * {@code version}, the ClusterOperators and the admin gate and ack ConfigMaps (for Upgradeable), the installed
 * ClusterVersion CRD (what status it accepts) and the FeatureGate {@code cluster} (which manifests a payload holds
 * for this cluster). Once the caches are filled, a change of the ClusterVersion, the CRD or the FeatureGate calls
 * {@code onChange}, a change of a ClusterOperator or of the admin ConfigMaps {@code onUpgradeableChange}.
 */
final class ClusterCaches implements AutoCloseable {
    static final String NAME = "version";
    static final String CRD = "clusterversions.config.openshift.io";
    static final String FEATURE_GATE = "cluster";
    /** The key {@link io.upshift.operator.cluster.Changes} knows the ClusterVersion by. */
    static final String KEY = io.upshift.operator.cluster.Changes.key("config.openshift.io/v1", "ClusterVersion", "", NAME);

    private final Informers informers;
    private final Informers operatorInformers;
    private final SharedIndexInformer<ClusterVersion> version;
    private final SharedIndexInformer<ClusterOperator> operators;
    /** Untyped: a CRD a newer API server serves may hold schema fields this client's model does not know. */
    private final SharedIndexInformer<GenericKubernetesResource> crd;
    private final SharedIndexInformer<FeatureGate> featureGate;
    private final SharedIndexInformer<ConfigMap> adminGates;
    private final SharedIndexInformer<ConfigMap> adminAcks;

    ClusterCaches(KubernetesClient client, Runnable onChange, Runnable onUpgradeableChange) {
        informers = new Informers(onChange);
        operatorInformers = new Informers(onUpgradeableChange);
        version = informers.add(client.resources(ClusterVersion.class).withName(NAME).runnableInformer(0));
        operators = operatorInformers.add(client.resources(ClusterOperator.class).runnableInformer(0));
        crd = informers.add(client.genericKubernetesResources("apiextensions.k8s.io/v1", "CustomResourceDefinition").withName(CRD).runnableInformer(0));
        featureGate = informers.add(client.resources(FeatureGate.class).withName(FEATURE_GATE).runnableInformer(0));
        adminGates = operatorInformers.add(client.configMaps().inNamespace(AdminGates.GATES_NAMESPACE).withName(AdminGates.GATES).runnableInformer(0));
        adminAcks = operatorInformers.add(client.configMaps().inNamespace(AdminGates.ACKS_NAMESPACE).withName(AdminGates.ACKS).runnableInformer(0));
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

    /** The data of the admin gate and ack ConfigMaps (null for one that does not exist). */
    AdminGates.ConfigMaps adminGates() {
        return new AdminGates.ConfigMaps(data(adminGates.getStore().getByKey(AdminGates.GATES_NAMESPACE + "/" + AdminGates.GATES)),
                data(adminAcks.getStore().getByKey(AdminGates.ACKS_NAMESPACE + "/" + AdminGates.ACKS)));
    }

    private static Map<String, String> data(ConfigMap cm) {
        if (cm == null) return null;
        return cm.getData() == null ? Map.of() : Map.copyOf(cm.getData());
    }

    /** The ClusterVersion CRD installed in the cluster, or null. */
    GenericKubernetesResource clusterVersionCrd() {
        return crd.getStore().getByKey(CRD);
    }

    /** The FeatureGate {@code cluster} as JSON, or null when there is none. */
    JsonNode featureGate() {
        FeatureGate gate = featureGate.getStore().getByKey(FEATURE_GATE);
        return gate == null ? null : Mappers.JSON.valueToTree(gate);
    }

    @Override
    public void close() {
        informers.close();
        operatorInformers.close();
    }
}
