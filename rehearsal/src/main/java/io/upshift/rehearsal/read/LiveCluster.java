package io.upshift.rehearsal.read;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.runtime.kube.ApiException;
import io.upshift.status.model.ClusterState;
import io.upshift.status.reader.ClusterReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads what a rehearsal needs from a live API server with get and list requests only (the rules of
 * {@code deploy/rehearse-rbac.yaml}): what {@code upshift status} reads, then the admin gates and
 * acks, FeatureGate {@code cluster}, the PodDisruptionBudgets and pods of every namespace, and the
 * signature ConfigMaps. What the account may not read, or the cluster does not serve, of these
 * (403, 404) is left out and named in {@link ClusterFacts#lacking}; the ClusterVersion, operators,
 * pools and nodes must be readable.
 */
public final class LiveCluster {
    static final ResourceDefinitionContext FEATURE_GATES =
            new ResourceDefinitionContext.Builder()
                    .withGroup("config.openshift.io")
                    .withVersion("v1")
                    .withKind("FeatureGate")
                    .withPlural("featuregates")
                    .withNamespaced(false)
                    .build();

    private final KubernetesClient client;
    private final List<String> lacking = new ArrayList<>();

    public LiveCluster(KubernetesClient client) {
        this.client = client;
    }

    public ClusterFacts read() {
        ClusterState state = new ClusterReader(client).read(Optional.empty());
        Map<String, String> gates =
                configMap(AdminGates.GATES_NAMESPACE, AdminGates.GATES, "admin gates");
        Map<String, String> acks =
                configMap(AdminGates.ACKS_NAMESPACE, AdminGates.ACKS, "admin acks");
        JsonNode featureGate =
                optional(
                        "featuregates.config.openshift.io/cluster",
                        "FeatureGate cluster",
                        () -> {
                            GenericKubernetesResource g =
                                    client.genericKubernetesResources(FEATURE_GATES)
                                            .withName("cluster")
                                            .get();
                            return g == null ? null : Mappers.JSON.valueToTree(g);
                        });
        List<PodDisruptionBudget> budgets =
                list(
                        "poddisruptionbudgets.policy",
                        "PodDisruptionBudgets",
                        () ->
                                client.policy()
                                        .v1()
                                        .podDisruptionBudget()
                                        .inAnyNamespace()
                                        .list()
                                        .getItems());
        List<Pod> pods =
                list("pods", "pods", () -> client.pods().inAnyNamespace().list().getItems());
        List<ConfigMap> signatures =
                list(
                        "configmaps/" + ConfigMapSignatureStore.NAMESPACE,
                        "the signatures the cluster keeps",
                        () ->
                                client.configMaps()
                                        .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                                        .withLabel(ConfigMapSignatureStore.LABEL)
                                        .list()
                                        .getItems());
        return new ClusterFacts(
                state,
                new AdminGates.ConfigMaps(gates, acks),
                featureGate,
                budgets,
                pods,
                signatures,
                lacking);
    }

    /**
     * A ConfigMap's data; null when it does not exist (as the controller's check expects), an empty
     * map when it may not be read (then it holds no gate, and that is named).
     */
    private Map<String, String> configMap(String namespace, String name, String what) {
        try {
            ConfigMap cm = client.configMaps().inNamespace(namespace).withName(name).get();
            return cm == null ? null : cm.getData() == null ? Map.of() : cm.getData();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403)
                throw new ApiException(client, "configmaps/" + namespace + "/" + name, e);
            lacking.add(what + " (ConfigMap " + namespace + "/" + name + ": forbidden)");
            return Map.of();
        }
    }

    private <T> T optional(String resource, String what, Supplier<T> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) return null;
            if (e.getCode() != 403) throw new ApiException(client, resource, e);
            lacking.add(what + " (" + resource + ": forbidden)");
            return null;
        }
    }

    private <T> List<T> list(String resource, String what, Supplier<List<T>> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403 && e.getCode() != 404)
                throw new ApiException(client, resource, e);
            lacking.add(
                    what
                            + " ("
                            + resource
                            + ": "
                            + (e.getCode() == 403 ? "forbidden" : "not served")
                            + ")");
            return List.of();
        }
    }
}
