package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.base.conditions.Conditions;
import java.util.List;
import java.util.Map;

/**
 * Whether a ClusterOperator has reached the versions its payload manifest lists, and if not, the
 * reference's error: no versions in the manifest (Fail), not Available (Fail), Degraded
 * (FailAfterInterval; only reported while installing), versions differ (None: just wait).
 */
public record OperatorLevel(boolean level, String reason, String message, Effect effect) {

    /** What a task error does to the update, as the reference's UpdateEffect. */
    public enum Effect {
        NONE,
        REPORT,
        FAIL,
        FAIL_AFTER_INTERVAL
    }

    public static final OperatorLevel LEVEL = new OperatorLevel(true, "", "", Effect.NONE);

    /**
     * @param expected the versions the payload's manifest lists (name to version)
     * @param live the ClusterOperator as the cluster has it, or null
     */
    public static OperatorLevel check(
            String name, Map<String, String> expected, ClusterOperator live, boolean installing) {
        if (expected.isEmpty()) {
            return new OperatorLevel(
                    false,
                    "ClusterOperatorNoVersions",
                    "Cluster operator " + name + " does not declare expected versions",
                    Effect.FAIL);
        }
        List<ClusterOperatorStatusCondition> conditions =
                live == null || live.getStatus() == null || live.getStatus().getConditions() == null
                        ? List.of()
                        : live.getStatus().getConditions();
        if (!Conditions.CLUSTER.isTrue(conditions, "Available")) {
            return new OperatorLevel(
                    false,
                    "ClusterOperatorNotAvailable",
                    "Cluster operator " + name + " is not available",
                    Effect.FAIL);
        }
        if (!Conditions.CLUSTER.isFalse(conditions, "Degraded")) {
            return new OperatorLevel(
                    false,
                    "ClusterOperatorDegraded",
                    "Cluster operator " + name + " is degraded",
                    installing ? Effect.REPORT : Effect.FAIL_AFTER_INTERVAL);
        }
        List<OperandVersion> versions =
                live.getStatus().getVersions() == null ? List.of() : live.getStatus().getVersions();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            boolean reached =
                    versions.stream()
                            .anyMatch(
                                    v ->
                                            e.getKey().equals(v.getName())
                                                    && e.getValue().equals(v.getVersion()));
            if (!reached) {
                return new OperatorLevel(
                        false,
                        "ClusterOperatorUpdating",
                        "Cluster operator " + name + " is updating versions",
                        Effect.NONE);
            }
        }
        return LEVEL;
    }
}
