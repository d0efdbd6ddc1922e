package io.upshift.base.conditions;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import java.util.function.Function;

/**
 * Finding conditions by type in the lists of any resource, one instance per condition class
 * (Kubernetes models share no condition interface): {@code
 * Conditions.CLUSTER.isTrue(cv.getStatus().getConditions(), "Progressing")}. A missing list or
 * condition is neither true nor false.
 */
public final class Conditions<C> {
    /** ClusterVersion and ClusterOperator conditions. */
    public static final Conditions<ClusterOperatorStatusCondition> CLUSTER =
            new Conditions<>(
                    ClusterOperatorStatusCondition::getType,
                    ClusterOperatorStatusCondition::getStatus,
                    ClusterOperatorStatusCondition::getReason);

    /** {@code metav1.Condition}: update insights, conditional updates. */
    public static final Conditions<Condition> META =
            new Conditions<>(Condition::getType, Condition::getStatus, Condition::getReason);

    public static final Conditions<MachineConfigPoolCondition> POOL =
            new Conditions<>(
                    MachineConfigPoolCondition::getType,
                    MachineConfigPoolCondition::getStatus,
                    MachineConfigPoolCondition::getReason);
    public static final Conditions<DeploymentCondition> DEPLOYMENT =
            new Conditions<>(
                    DeploymentCondition::getType,
                    DeploymentCondition::getStatus,
                    DeploymentCondition::getReason);

    /** Conditions in an object read as JSON (any kind). */
    public static final Conditions<JsonNode> JSON =
            new Conditions<>(
                    c -> c.path("type").asText(),
                    c -> c.path("status").asText(),
                    c -> c.path("reason").asText(""));

    private final Function<C, String> type;
    private final Function<C, String> status;
    private final Function<C, String> reason;

    private Conditions(
            Function<C, String> type, Function<C, String> status, Function<C, String> reason) {
        this.type = type;
        this.status = status;
        this.reason = reason;
    }

    /** The first condition of {@code wanted} type, or null. */
    public C find(Iterable<C> conditions, String wanted) {
        if (conditions == null) return null;
        for (C c : conditions) {
            if (wanted.equals(type.apply(c))) return c;
        }
        return null;
    }

    public boolean isTrue(Iterable<C> conditions, String wanted) {
        return hasStatus(conditions, wanted, "True");
    }

    public boolean isFalse(Iterable<C> conditions, String wanted) {
        return hasStatus(conditions, wanted, "False");
    }

    /** The condition's status is {@code value} ("True", "False", "Unknown"). */
    public boolean hasStatus(Iterable<C> conditions, String wanted, String value) {
        C c = find(conditions, wanted);
        return c != null && value.equals(status.apply(c));
    }

    /** The condition's reason; empty when it has none or is missing. */
    public String reason(Iterable<C> conditions, String wanted) {
        C c = find(conditions, wanted);
        String r = c == null ? null : reason.apply(c);
        return r == null ? "" : r;
    }
}
