package io.upshift.rehearsal.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.status.model.ClusterState;
import java.util.List;

/**
 * What a rehearsal reads of a cluster, from its API server or a snapshot: what {@code upshift
 * status} reads ({@code state}: ClusterVersion, ClusterOperators, pools, MachineConfigs, nodes),
 * and besides the admin gates and acks, FeatureGate {@code cluster}, the PodDisruptionBudgets and
 * pods a drain meets, and the signatures the cluster keeps.
 *
 * @param adminGates the data of ConfigMaps {@code openshift-config-managed/admin-gates} and {@code
 *     openshift-config/admin-acks}, each null when absent
 * @param featureGate FeatureGate {@code cluster}, or null when the cluster has none
 * @param signatures the ConfigMaps of {@code openshift-config-managed} labelled {@code
 *     release.openshift.io/verification-signatures}
 * @param lacking what the source did not hold or would not show, one phrase each ("no
 *     PodDisruptionBudget in the snapshot"): the rehearsal goes on without it and says so
 */
public record ClusterFacts(
        ClusterState state,
        AdminGates.ConfigMaps adminGates,
        JsonNode featureGate,
        List<PodDisruptionBudget> budgets,
        List<Pod> pods,
        List<ConfigMap> signatures,
        List<String> lacking) {
    public ClusterFacts {
        budgets = List.copyOf(budgets);
        pods = List.copyOf(pods);
        signatures = List.copyOf(signatures);
        lacking = List.copyOf(lacking);
    }

    public ClusterVersion clusterVersion() {
        return state.clusterVersion();
    }

    /** The release the cluster runs or is going to: status.desired's version, "" when unknown. */
    public String currentVersion() {
        var status = clusterVersion().getStatus();
        return status == null
                        || status.getDesired() == null
                        || status.getDesired().getVersion() == null
                ? ""
                : status.getDesired().getVersion();
    }

    /** status.desired's image, "" when unknown. */
    public String currentImage() {
        var status = clusterVersion().getStatus();
        return status == null
                        || status.getDesired() == null
                        || status.getDesired().getImage() == null
                ? ""
                : status.getDesired().getImage();
    }
}
