package io.upshift.base.conditions;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Sets ClusterVersion conditions, keeping lastTransitionTime while a condition's status stays the
 * same.
 */
public final class StatusConditions {

    private StatusConditions() {}

    public static List<ClusterOperatorStatusCondition> set(
            List<ClusterOperatorStatusCondition> conditions,
            String type,
            String status,
            String reason,
            String message,
            Instant now) {
        List<ClusterOperatorStatusCondition> out = new ArrayList<>();
        String since = ApiTime.of(now);
        for (ClusterOperatorStatusCondition c :
                conditions == null ? List.<ClusterOperatorStatusCondition>of() : conditions) {
            if (type.equals(c.getType())) {
                if (status.equals(c.getStatus()) && c.getLastTransitionTime() != null)
                    since = c.getLastTransitionTime();
            } else {
                out.add(c);
            }
        }
        ClusterOperatorStatusCondition c = new ClusterOperatorStatusCondition();
        c.setType(type);
        c.setStatus(status);
        c.setLastTransitionTime(since);
        if (reason != null && !reason.isEmpty()) c.setReason(reason);
        if (message != null && !message.isEmpty()) c.setMessage(message);
        out.add(c);
        out.sort(
                Comparator.comparingInt(
                        x ->
                                ORDER.indexOf(x.getType()) < 0
                                        ? ORDER.size()
                                        : ORDER.indexOf(x.getType())));
        return out;
    }

    /** The conditions without those of {@code type}. */
    public static List<ClusterOperatorStatusCondition> remove(
            List<ClusterOperatorStatusCondition> conditions, String type) {
        List<ClusterOperatorStatusCondition> out = new ArrayList<>();
        if (conditions != null)
            for (ClusterOperatorStatusCondition c : conditions)
                if (!type.equals(c.getType())) out.add(c);
        return out;
    }

    public static ClusterOperatorStatusCondition find(
            List<ClusterOperatorStatusCondition> conditions, String type) {
        if (conditions == null) return null;
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }

    private static final List<String> ORDER =
            List.of(
                    "RetrievedUpdates",
                    "ImplicitlyEnabledCapabilities",
                    "ReleaseAccepted",
                    "Available",
                    "Failing",
                    "Progressing",
                    "Upgradeable",
                    "Invalid");
}
