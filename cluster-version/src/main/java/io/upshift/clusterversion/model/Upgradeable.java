package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ComponentOverride;
import io.upshift.base.conditions.StatusConditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Upgradeable condition, as upstream aggregates its checks (pkg/cvo/upgradeable.go): overrides,
 * admin gates, ClusterOperators, resource deletions in progress and an update in progress, in that
 * order. No failed check: no Upgradeable condition at all; one: Upgradeable=False with its reason
 * and message; several: Upgradeable=False MultipleReasons, and each failed check as a condition of
 * its own type. It blocks minor and major updates (the ClusterVersionUpgradeable precondition), not
 * patch updates.
 */
public record Upgradeable(List<UpgradeableCheck> failed) {

    public static final String TYPE = "Upgradeable";

    public Upgradeable {
        failed = List.copyOf(failed);
    }

    /**
     * What the checks look at besides ClusterVersion status.
     *
     * @param deletesInProgress resources whose deletion the controller requested and has not yet
     *     seen complete
     */
    public record Facts(
            List<ClusterOperator> operators,
            List<ComponentOverride> overrides,
            AdminGates.ConfigMaps adminGates,
            List<String> deletesInProgress) {
        public Facts {
            operators = List.copyOf(operators);
            overrides = overrides == null ? List.of() : List.copyOf(overrides);
            deletesInProgress = List.copyOf(deletesInProgress);
        }

        /**
         * Nothing that holds the cluster: no operator, no override, the admin ConfigMaps without
         * gates, no deletion.
         */
        public static Facts none() {
            return new Facts(List.of(), List.of(), AdminGates.ConfigMaps.NONE, List.of());
        }
    }

    /**
     * The checks on {@code facts} and on {@code status}, the status being computed (its
     * Progressing, its history).
     */
    public static Upgradeable of(Facts facts, ClusterVersionStatus status) {
        List<UpgradeableCheck> failed = new ArrayList<>();
        UpgradeableChecks.overrides(facts.overrides()).ifPresent(failed::add);
        AdminGates.check(status.getHistory(), facts.adminGates()).ifPresent(failed::add);
        UpgradeableChecks.clusterOperators(facts.operators()).ifPresent(failed::add);
        UpgradeableChecks.deletesInProgress(facts.deletesInProgress()).ifPresent(failed::add);
        UpgradeableChecks.updateInProgress(
                        StatusConditions.find(status.getConditions(), "Progressing"),
                        status.getHistory())
                .ifPresent(failed::add);
        return new Upgradeable(failed);
    }

    public String status() {
        return failed.isEmpty() ? "True" : "False";
    }

    public String reason() {
        if (failed.isEmpty()) return "";
        return failed.size() == 1 ? failed.get(0).reason() : "MultipleReasons";
    }

    public String message() {
        if (failed.isEmpty()) return "";
        if (failed.size() == 1) return failed.get(0).message();
        List<String> reasons = failed.stream().map(UpgradeableCheck::reason).toList();
        List<String> messages = failed.stream().map(UpgradeableCheck::message).toList();
        return "Cluster should not be upgraded between minor versions for multiple reasons: "
                + String.join(",", reasons)
                + "\n* "
                + String.join("\n* ", messages);
    }

    /**
     * The conditions ClusterVersion shows: none, Upgradeable alone, or Upgradeable and each failed
     * check.
     */
    public List<UpgradeableCheck> conditions() {
        if (failed.isEmpty()) return List.of();
        UpgradeableCheck summary = UpgradeableCheck.failed(TYPE, reason(), message());
        if (failed.size() == 1) return List.of(summary);
        List<UpgradeableCheck> out = new ArrayList<>(failed);
        out.add(summary);
        return out;
    }

    /** The failed check of {@code type}, if any. */
    public Optional<UpgradeableCheck> find(String type) {
        return failed.stream().filter(c -> c.type().equals(type)).findFirst();
    }
}
