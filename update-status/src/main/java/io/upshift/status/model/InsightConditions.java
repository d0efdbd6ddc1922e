package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;

/** Building the {@code metav1.Condition}s of insights. */
public final class InsightConditions {
    private InsightConditions() {}

    /**
     * A condition whose transition time, unless given, is settled later by {@link InsightHistory}.
     */
    public static Condition of(
            String type, String status, String reason, String message, String lastTransitionTime) {
        return new ConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message == null ? "" : message)
                .withLastTransitionTime(lastTransitionTime)
                .build();
    }

    public static Condition of(String type, boolean status, String reason, String message) {
        return of(type, status ? "True" : "False", reason, message, null);
    }
}
