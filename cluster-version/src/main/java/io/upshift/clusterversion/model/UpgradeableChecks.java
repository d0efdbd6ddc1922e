package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ComponentOverride;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.StatusConditions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Upstream's Upgradeable checks but the admin gates ({@link AdminGates}), each worded as upstream
 * words it
 * (https://github.com/openshift/cluster-version-operator/blob/release-4.19/pkg/cvo/upgradeable.go).
 */
public final class UpgradeableChecks {

    private UpgradeableChecks() {}

    /** An unmanaged override: the cluster is not the payload's any more. */
    public static Optional<UpgradeableCheck> overrides(List<ComponentOverride> overrides) {
        if (overrides == null
                || overrides.stream().noneMatch(o -> Boolean.TRUE.equals(o.getUnmanaged())))
            return Optional.empty();
        return Optional.of(
                UpgradeableCheck.failed(
                        UpgradeableCheck.OVERRIDES,
                        "ClusterVersionOverridesSet",
                        Preconditions.OVERRIDES_MESSAGE));
    }

    /**
     * ClusterOperators saying Upgradeable=False: one names its own reason, several
     * ClusterOperatorsNotUpgradeable.
     */
    public static Optional<UpgradeableCheck> clusterOperators(List<ClusterOperator> operators) {
        List<ClusterOperator> sorted = new ArrayList<>(operators);
        sorted.sort(Comparator.comparing(co -> co.getMetadata().getName()));
        List<String> names = new ArrayList<>();
        List<ClusterOperatorStatusCondition> conditions = new ArrayList<>();
        for (ClusterOperator co : sorted) {
            if (co.getStatus() == null) continue;
            ClusterOperatorStatusCondition up =
                    StatusConditions.find(co.getStatus().getConditions(), "Upgradeable");
            if (up != null && "False".equals(up.getStatus())) {
                names.add(co.getMetadata().getName());
                conditions.add(up);
            }
        }
        if (names.isEmpty()) return Optional.empty();
        if (names.size() == 1) {
            return Optional.of(
                    UpgradeableCheck.failed(
                            UpgradeableCheck.CLUSTER_OPERATORS,
                            nz(conditions.get(0).getReason()),
                            "Cluster operator "
                                    + names.get(0)
                                    + " should not be upgraded between minor versions: "
                                    + nz(conditions.get(0).getMessage())));
        }
        StringBuilder m =
                new StringBuilder(
                        "Multiple cluster operators should not be upgraded between minor"
                                + " versions:");
        for (int i = 0; i < names.size(); i++) {
            m.append("\n* Cluster operator ")
                    .append(names.get(i))
                    .append(" should not be upgraded between minor versions: ")
                    .append(nz(conditions.get(i).getReason()))
                    .append(": ")
                    .append(nz(conditions.get(i).getMessage()));
        }
        return Optional.of(
                UpgradeableCheck.failed(
                        UpgradeableCheck.CLUSTER_OPERATORS,
                        "ClusterOperatorsNotUpgradeable",
                        m.toString()));
    }

    /**
     * Deletions of resources the payload marks for deletion, requested and not yet complete ({@code
     * kind "ns/name"}).
     */
    public static Optional<UpgradeableCheck> deletesInProgress(List<String> resources) {
        if (resources.isEmpty()) return Optional.empty();
        return Optional.of(
                UpgradeableCheck.failed(
                        UpgradeableCheck.DELETES,
                        "ResourceDeletesInProgress",
                        "Cluster minor level upgrades are not allowed while resource deletions are"
                                + " in progress; resources="
                                + String.join(",", new TreeSet<>(resources))));
    }

    /**
     * An update in progress (Progressing=True): upstream's only check whose condition says True. An
     * update is in progress once accepted (history[0] Partial); a target still being retrieved, or
     * refused, is not one, or its own Progressing would refuse it (a minor update refused for an
     * admin ack, then acknowledged, would be refused for UpdateInProgress ever after).
     */
    public static Optional<UpgradeableCheck> updateInProgress(
            ClusterOperatorStatusCondition progressing, List<UpdateHistory> history) {
        if (progressing == null || !"True".equals(progressing.getStatus())) return Optional.empty();
        if (history == null || history.isEmpty() || !"Partial".equals(history.get(0).getState()))
            return Optional.empty();
        return Optional.of(
                new UpgradeableCheck(
                        UpgradeableCheck.UPDATE_IN_PROGRESS,
                        "True",
                        "UpdateInProgress",
                        "An update is already in progress and the details are in the Progressing"
                                + " condition"));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
