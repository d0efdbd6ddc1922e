package io.upshift.core.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;

/** Building and finding {@code metav1.Condition}s of insights. */
public final class Conditions {
    private Conditions() {
    }

    /** A condition whose transition time, unless given, is settled later by {@link InsightHistory}. */
    public static Condition of(String type, String status, String reason, String message, String lastTransitionTime) {
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
                .withMessage(message == null ? "" : message).withLastTransitionTime(lastTransitionTime).build();
    }

    public static Condition of(String type, boolean status, String reason, String message) {
        return of(type, status ? "True" : "False", reason, message, null);
    }

    public static Condition find(List<Condition> conditions, String type) {
        if (conditions == null) {
            return null;
        }
        for (Condition c : conditions) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    public static boolean isTrue(List<Condition> conditions, String type) {
        Condition c = find(conditions, type);
        return c != null && "True".equals(c.getStatus());
    }

    public static boolean isFalse(List<Condition> conditions, String type) {
        Condition c = find(conditions, type);
        return c != null && "False".equals(c.getStatus());
    }

    public static String reason(List<Condition> conditions, String type) {
        Condition c = find(conditions, type);
        return c == null || c.getReason() == null ? "" : c.getReason();
    }
}
