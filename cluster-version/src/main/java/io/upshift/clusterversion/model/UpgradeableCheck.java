package io.upshift.clusterversion.model;

/**
 * One reason the cluster should not update to another minor version: a failed check of upstream's
 * Upgradeable checks (pkg/cvo/upgradeable.go), as its own condition (type {@code Upgradeable…})
 * shows it when there are several.
 */
public record UpgradeableCheck(String type, String status, String reason, String message) {

    public static final String OVERRIDES = "UpgradeableClusterVersionOverrides";
    public static final String ADMIN_ACKS = "UpgradeableAdminAckRequired";
    public static final String CLUSTER_OPERATORS = "UpgradeableClusterOperators";
    public static final String DELETES = "UpgradeableDeletesInProgress";
    public static final String UPDATE_IN_PROGRESS = "UpgradeableUpgradeInProgress";

    /** A check that failed with status False, as all do but the update in progress. */
    static UpgradeableCheck failed(String type, String reason, String message) {
        return new UpgradeableCheck(type, "False", reason, message);
    }
}
