package io.upshift.clusterversion.model;

/**
 * The outcome of one precondition that did not simply pass: blocking stops the update unless it is
 * forced, a warning is only recorded. Either way it lands in ReleaseAccepted and in the history
 * entry's acceptedRisks.
 */
public record Precondition(String name, String reason, String message, boolean blocking) {

    public static final String ROLLBACK = "ClusterVersionRollback";
    public static final String GIANT_HOP = "ClusterVersionGiantHop";
    public static final String UPGRADEABLE = "ClusterVersionUpgradeable";
    public static final String RECOMMENDED = "ClusterVersionRecommendedUpdate";
}
