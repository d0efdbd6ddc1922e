package io.upshift.clusterversion.metrics;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.upshift.base.conditions.Conditions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which conditions of a ClusterOperator changed status between two versions of it, counted as
 * upstream counts them ({@code clusterOperatorChanged}): a condition whose status changed or that
 * went away, and one that appeared.
 */
public final class ConditionTransitions {

    /** A condition type of one ClusterOperator; ordered by operator, then type. */
    public record Key(String operator, String type) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int byOperator = operator.compareTo(o.operator);
            return byOperator != 0 ? byOperator : type.compareTo(o.type);
        }
    }

    private ConditionTransitions() {}

    /** The condition types that transitioned from {@code before} to {@code after}, each once. */
    public static List<String> between(
            List<ClusterOperatorStatusCondition> before,
            List<ClusterOperatorStatusCondition> after) {
        List<ClusterOperatorStatusCondition> old = before == null ? List.of() : before,
                now = after == null ? List.of() : after;
        Set<String> seen = new LinkedHashSet<>();
        List<String> changed = new ArrayList<>();
        for (ClusterOperatorStatusCondition o : old) {
            if (!seen.add(o.getType())) continue;
            ClusterOperatorStatusCondition n = Conditions.CLUSTER.find(now, o.getType());
            if (n == null || !Objects.equals(n.getStatus(), o.getStatus()))
                changed.add(o.getType());
        }
        for (ClusterOperatorStatusCondition n : now) {
            if (seen.add(n.getType())) changed.add(n.getType());
        }
        return changed;
    }
}
