package io.upshift.core.cvo;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ComponentOverride;
import java.util.ArrayList;
import java.util.List;

/**
 * The Upgradeable condition: False when a ClusterOperator says Upgradeable=False or an unmanaged override is set; it
 * blocks minor and major updates (the ClusterVersionUpgradeable precondition), not patch updates.
 */
public record Upgradeable(String status, String reason, String message) {

    public static Upgradeable of(List<ClusterOperator> operators, List<ComponentOverride> overrides) {
        List<String> messages = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        if (overrides != null && overrides.stream().anyMatch(o -> Boolean.TRUE.equals(o.getUnmanaged()))) {
            reasons.add("ClusterVersionOverridesSet");
            messages.add("Disabling ownership via cluster version overrides prevents upgrades between minor or major versions. "
                    + "Please remove overrides before requesting a minor or major version update.");
        }
        for (ClusterOperator co : operators) {
            if (co.getStatus() == null || co.getStatus().getConditions() == null) continue;
            for (ClusterOperatorStatusCondition c : co.getStatus().getConditions()) {
                if ("Upgradeable".equals(c.getType()) && "False".equals(c.getStatus())) {
                    reasons.add(c.getReason() == null ? "NotUpgradeable" : c.getReason());
                    messages.add("Cluster operator " + co.getMetadata().getName() + " should not be upgraded between minor versions: " + c.getMessage());
                }
            }
        }
        if (messages.isEmpty()) return new Upgradeable("True", "", "");
        if (messages.size() == 1) return new Upgradeable("False", reasons.get(0), messages.get(0));
        return new Upgradeable("False", "MultipleReasons", "Multiple reasons are preventing upgrades:\n* " + String.join("\n* ", messages));
    }
}
