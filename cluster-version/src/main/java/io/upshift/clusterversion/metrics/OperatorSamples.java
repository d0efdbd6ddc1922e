package io.upshift.clusterversion.metrics;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.base.conditions.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rows about ClusterOperators: {@code cluster_operator_up}, {@code cluster_operator_conditions}
 * (True and False conditions only) and {@code cluster_operator_condition_transitions}, as
 * upstream's collector exports them.
 */
public final class OperatorSamples {

    static final String NO_AVAILABLE_CONDITION = "NoAvailableCondition";

    private OperatorSamples() {}

    /**
     * The rows of {@code operators}, and the transitions counted so far, by operator and condition
     * type.
     */
    public static List<Sample> of(
            List<ClusterOperator> operators, Map<ConditionTransitions.Key, Integer> transitions) {
        List<Sample> out = new ArrayList<>();
        for (ClusterOperator co : operators) {
            String name = co.getMetadata().getName();
            List<ClusterOperatorStatusCondition> conditions =
                    co.getStatus() == null ? null : co.getStatus().getConditions();
            ClusterOperatorStatusCondition available =
                    Conditions.CLUSTER.find(conditions, "Available");
            out.add(
                    Sample.of(
                            Gauges.OPERATOR_UP.name(),
                            available != null && "True".equals(available.getStatus()) ? 1 : 0,
                            "name",
                            name,
                            "version",
                            operatorVersion(co),
                            "reason",
                            available == null ? NO_AVAILABLE_CONDITION : available.getReason()));
            if (conditions == null) continue;
            for (ClusterOperatorStatusCondition c : conditions) {
                if (!"True".equals(c.getStatus()) && !"False".equals(c.getStatus())) continue;
                out.add(
                        Sample.of(
                                Gauges.OPERATOR_CONDITIONS.name(),
                                "True".equals(c.getStatus()) ? 1 : 0,
                                "name",
                                name,
                                "condition",
                                c.getType(),
                                "reason",
                                c.getReason()));
            }
        }
        transitions.forEach(
                (k, n) ->
                        out.add(
                                Sample.of(
                                        Gauges.CONDITION_TRANSITIONS.name(),
                                        n,
                                        "name",
                                        k.operator(),
                                        "condition",
                                        k.type())));
        return out;
    }

    /** The version named "operator" in status.versions; empty when it sets none. */
    private static String operatorVersion(ClusterOperator co) {
        if (co.getStatus() == null || co.getStatus().getVersions() == null) return "";
        for (OperandVersion v : co.getStatus().getVersions())
            if ("operator".equals(v.getName())) return v.getVersion();
        return "";
    }
}
