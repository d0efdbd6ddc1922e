package io.upshift.clusterversion.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.upshift.api.json.Mappers;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.clusterversion.model.UnreadableConfig;
import io.upshift.releases.image.Egress;
import io.upshift.releases.image.ProxyRules;
import io.upshift.runtime.kube.Changes;
import io.upshift.runtime.kube.Informers;
import io.upshift.runtime.kube.OptionalInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the cluster-version controller reads besides the payload's objects, each from an informer:
 * the ClusterVersion {@code version}, the ClusterOperators and the admin gate and ack ConfigMaps
 * (for Upgradeable), the installed ClusterVersion CRD (what status it accepts), the FeatureGate
 * {@code cluster} (which manifests a payload holds for this cluster), the Proxy {@code cluster}
 * (for manifests that ask for it, and the way out to the update graph, signature stores and
 * registries) and the trusted CA bundle ConfigMap (with the proxy, the way out). The FeatureGate
 * and the Proxy are optional kinds ({@link OptionalInformer}): on a cluster that does not serve
 * them, or whose account may not read them, the controller works without them, as upstream's does
 * without them. Once the caches are filled, a change of the ClusterVersion, the CRD, the
 * FeatureGate, the Proxy or the trusted CA bundle calls {@code onChange}, a change of a
 * ClusterOperator or of the admin ConfigMaps {@code onUpgradeableChange}.
 */
final class ClusterCaches implements AutoCloseable {
    static final String NAME = "version";
    static final String CRD = "clusterversions.config.openshift.io";
    static final String FEATURE_GATE = "cluster";
    static final String PROXY_NAME = "cluster";
    private static final ResourceDefinitionContext PROXY =
            new ResourceDefinitionContext.Builder()
                    .withGroup("config.openshift.io")
                    .withVersion("v1")
                    .withKind("Proxy")
                    .withPlural("proxies")
                    .withNamespaced(false)
                    .build();

    /** The key {@link io.upshift.runtime.kube.Changes} knows the ClusterVersion by. */
    static final String KEY = Changes.key("config.openshift.io/v1", "ClusterVersion", "", NAME);

    private final Informers informers;
    private final Informers operatorInformers;
    private final SharedIndexInformer<ClusterVersion> version;
    private final SharedIndexInformer<ClusterOperator> operators;

    /**
     * Untyped: a CRD a newer API server serves may hold schema fields this client's model does not
     * know.
     */
    private final SharedIndexInformer<GenericKubernetesResource> crd;

    private final OptionalInformer<FeatureGate> featureGate;
    private final OptionalInformer<GenericKubernetesResource> proxy;
    private final SharedIndexInformer<ConfigMap> trustedCa;
    private final SharedIndexInformer<ConfigMap> adminGates;
    private final SharedIndexInformer<ConfigMap> adminAcks;

    ClusterCaches(KubernetesClient client, Runnable onChange, Runnable onUpgradeableChange) {
        informers = new Informers(onChange);
        operatorInformers = new Informers(onUpgradeableChange);
        version =
                informers.add(
                        client.resources(ClusterVersion.class).withName(NAME).runnableInformer(0));
        operators =
                operatorInformers.add(client.resources(ClusterOperator.class).runnableInformer(0));
        crd =
                informers.add(
                        client.genericKubernetesResources(
                                        "apiextensions.k8s.io/v1", "CustomResourceDefinition")
                                .withName(CRD)
                                .runnableInformer(0));
        featureGate =
                informers.optional(
                        new OptionalInformer<>(
                                client,
                                "featuregates.config.openshift.io",
                                "the default feature set (no TechPreviewNoUpgrade or"
                                        + " CustomNoUpgrade manifests)",
                                () ->
                                        client.resources(FeatureGate.class)
                                                .withName(FEATURE_GATE)
                                                .runnableInformer(0)));
        proxy = informers.optional(proxyInformer(client));
        trustedCa =
                informers.add(
                        client.configMaps()
                                .inNamespace(Egress.TRUSTED_CA_NAMESPACE)
                                .withName(Egress.TRUSTED_CA_CONFIG_MAP)
                                .runnableInformer(0));
        adminGates =
                operatorInformers.add(
                        client.configMaps()
                                .inNamespace(AdminGates.GATES_NAMESPACE)
                                .withName(AdminGates.GATES)
                                .runnableInformer(0));
        adminAcks =
                operatorInformers.add(
                        client.configMaps()
                                .inNamespace(AdminGates.ACKS_NAMESPACE)
                                .withName(AdminGates.ACKS)
                                .runnableInformer(0));
    }

    /**
     * Starts the informers and waits until their caches are filled (and the optional kinds are
     * known served or not).
     */
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
        return new AdminGates.ConfigMaps(
                data(
                        adminGates
                                .getStore()
                                .getByKey(AdminGates.GATES_NAMESPACE + "/" + AdminGates.GATES)),
                data(
                        adminAcks
                                .getStore()
                                .getByKey(AdminGates.ACKS_NAMESPACE + "/" + AdminGates.ACKS)));
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
        FeatureGate gate = featureGate.get(FEATURE_GATE);
        return gate == null ? null : Mappers.JSON.valueToTree(gate);
    }

    /**
     * The cluster's egress proxy, Proxy {@code cluster}: none while it does not exist, its kind is
     * not served or may not be read, as upstream tolerates during install.
     */
    ClusterProxy clusterProxy() {
        return clusterProxy(proxy);
    }

    /**
     * How the controller reaches the update graph and signature stores: the cluster's proxy and its
     * trusted CA bundle (ConfigMap {@code openshift-config-managed/trusted-ca-bundle}, key {@code
     * ca-bundle.crt}; none while it does not exist or is empty), as upstream's egress reads them
     * from its listers. A Proxy the controller may not read leaves the way out unknown.
     */
    Egress egress() {
        ConfigMap cm =
                trustedCa
                        .getStore()
                        .getByKey(Egress.TRUSTED_CA_NAMESPACE + "/" + Egress.TRUSTED_CA_CONFIG_MAP);
        String bundle =
                cm == null || cm.getData() == null
                        ? ""
                        : cm.getData().getOrDefault(Egress.TRUSTED_CA_KEY, "");
        OptionalInformer.Availability proxyRead = proxy.availability();
        String unknown =
                proxyRead.state() == OptionalInformer.State.REFUSED
                        ? "cannot read " + proxy.resource() + " (" + proxyRead.detail() + ")"
                        : "";
        return new Egress(ProxyRules.of(clusterProxy()), bundle, unknown);
    }

    /** An informer of the Proxy {@code cluster}, not started. */
    static OptionalInformer<GenericKubernetesResource> proxyInformer(KubernetesClient client) {
        return new OptionalInformer<>(
                client,
                "proxies.config.openshift.io",
                "no cluster-wide egress proxy for manifests that ask for it",
                () ->
                        client.genericKubernetesResources(PROXY)
                                .withName(PROXY_NAME)
                                .runnableInformer(0));
    }

    static ClusterProxy clusterProxy(OptionalInformer<GenericKubernetesResource> proxy) {
        GenericKubernetesResource p = proxy.get(PROXY_NAME);
        return p == null ? ClusterProxy.NONE : ClusterProxy.of(Mappers.JSON.valueToTree(p));
    }

    /**
     * The optional kinds the controller's account may not read: ClusterVersion names them in a
     * condition.
     */
    List<UnreadableConfig> unreadable() {
        List<UnreadableConfig> out = new ArrayList<>();
        for (OptionalInformer<?> o : List.of(featureGate, proxy)) {
            OptionalInformer.Availability a = o.availability();
            if (a.state() == OptionalInformer.State.REFUSED)
                out.add(new UnreadableConfig(o.resource(), a.detail(), o.without()));
        }
        return out;
    }

    @Override
    public void close() {
        informers.close();
        operatorInformers.close();
    }
}
