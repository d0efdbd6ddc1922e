package io.upshift.rehearsal.read;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.status.model.ClusterState;
import io.upshift.status.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads what a rehearsal needs from a snapshot directory ({@code kubectl get -o yaml} dumps, as
 * {@code upshift status --snapshot} reads them). A kind the snapshot holds no object of is named in
 * {@link ClusterFacts#lacking}, and the rehearsal goes on without it: no budgets or pods, no drain
 * is held up; no ConfigMaps, no admin gate is known; no FeatureGate, the Default feature set; no
 * ClusterOperators, pools or nodes, none is rehearsed. A snapshot without a ClusterVersion is
 * refused, in one line ({@link io.upshift.status.snapshot.SnapshotException}).
 */
public final class SnapshotCluster {
    private SnapshotCluster() {}

    public static ClusterFacts read(String dir) {
        Snapshot.Contents contents = Snapshot.read(dir);
        ClusterState state = Snapshot.assemble(dir, contents.objects(), contents.alerts());
        List<String> lacking = new ArrayList<>();
        if (state.operators().isEmpty())
            lacking.add("ClusterOperators: no operator is known to be degraded or to hold it");
        if (state.pools().isEmpty())
            lacking.add("MachineConfigPools: no pool's rollout is rehearsed");
        if (state.nodes().isEmpty()) lacking.add("Nodes: no node's update is rehearsed");
        List<ConfigMap> configMaps = contents.of(ConfigMap.class);
        AdminGates.ConfigMaps gates;
        if (configMaps.isEmpty()) {
            lacking.add(
                    "ConfigMaps: the admin gates and acks, and the signatures the cluster keeps");
            gates = AdminGates.ConfigMaps.NONE;
        } else {
            gates =
                    new AdminGates.ConfigMaps(
                            data(configMaps, AdminGates.GATES_NAMESPACE, AdminGates.GATES),
                            data(configMaps, AdminGates.ACKS_NAMESPACE, AdminGates.ACKS));
        }
        List<PodDisruptionBudget> budgets = contents.of(PodDisruptionBudget.class);
        if (budgets.isEmpty()) lacking.add("PodDisruptionBudgets: no drain is known to be held up");
        List<Pod> pods = contents.of(Pod.class);
        if (pods.isEmpty()) lacking.add("pods: the drains are rehearsed without what they evict");
        JsonNode featureGate =
                contents.of(FeatureGate.class).stream()
                        .filter(g -> "cluster".equals(g.getMetadata().getName()))
                        .findFirst()
                        .map(g -> (JsonNode) Mappers.JSON.valueToTree(g))
                        .orElse(null);
        if (featureGate == null)
            lacking.add("FeatureGate cluster: the Default feature set is assumed");
        List<ConfigMap> signatures =
                configMaps.stream()
                        .filter(
                                c ->
                                        ConfigMapSignatureStore.NAMESPACE.equals(
                                                        c.getMetadata().getNamespace())
                                                && c.getMetadata().getLabels() != null
                                                && c.getMetadata()
                                                        .getLabels()
                                                        .containsKey(ConfigMapSignatureStore.LABEL))
                        .toList();
        return new ClusterFacts(state, gates, featureGate, budgets, pods, signatures, lacking);
    }

    /** The data of ConfigMap {@code namespace/name}; null when the snapshot does not hold it. */
    private static Map<String, String> data(List<ConfigMap> maps, String namespace, String name) {
        return maps.stream()
                .filter(
                        c ->
                                name.equals(c.getMetadata().getName())
                                        && namespace.equals(c.getMetadata().getNamespace()))
                .findFirst()
                .map(c -> c.getData() == null ? Map.<String, String>of() : c.getData())
                .orElse(null);
    }
}
