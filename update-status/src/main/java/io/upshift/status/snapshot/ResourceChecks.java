package io.upshift.status.snapshot;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.status.model.Times;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;

/**
 * Rejects values the status engine would misread: unknown enum values and unreadable timestamps.
 */
final class ResourceChecks {
    private static final Set<String> CONDITION_STATUSES = Set.of("True", "False", "Unknown");
    private static final Set<String> HISTORY_STATES = Set.of("Completed", "Partial");

    private ResourceChecks() {}

    static void check(String where, HasMetadata object) {
        String what = where + ": " + object.getKind() + " " + object.getMetadata().getName() + ": ";
        if (object instanceof ClusterVersion cv) {
            if (cv.getStatus() == null) {
                throw new SnapshotException(what + "status is missing");
            }
            operatorConditions(what, cv.getStatus().getConditions());
            List<UpdateHistory> history = cv.getStatus().getHistory();
            for (int i = 0; history != null && i < history.size(); i++) {
                UpdateHistory h = history.get(i);
                String field = "status.history[" + i + "]";
                oneOf(what, field + ".state", h.getState(), HISTORY_STATES);
                time(what, field + ".startedTime", h.getStartedTime());
                time(what, field + ".completionTime", h.getCompletionTime());
            }
        } else if (object instanceof ClusterOperator co && co.getStatus() != null) {
            operatorConditions(what, co.getStatus().getConditions());
        } else if (object instanceof Node node
                && node.getStatus() != null
                && node.getStatus().getConditions() != null) {
            List<NodeCondition> conditions = node.getStatus().getConditions();
            for (int i = 0; i < conditions.size(); i++) {
                oneOf(
                        what,
                        "status.conditions[" + i + "].status",
                        conditions.get(i).getStatus(),
                        CONDITION_STATUSES);
                time(
                        what,
                        "status.conditions[" + i + "].lastTransitionTime",
                        conditions.get(i).getLastTransitionTime());
            }
        }
    }

    private static void operatorConditions(
            String what, List<ClusterOperatorStatusCondition> conditions) {
        for (int i = 0; conditions != null && i < conditions.size(); i++) {
            oneOf(
                    what,
                    "status.conditions[" + i + "].status",
                    conditions.get(i).getStatus(),
                    CONDITION_STATUSES);
            time(
                    what,
                    "status.conditions[" + i + "].lastTransitionTime",
                    conditions.get(i).getLastTransitionTime());
        }
    }

    private static void oneOf(String what, String field, String value, Set<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            throw new SnapshotException(
                    what
                            + field
                            + ": unknown value \""
                            + value
                            + "\" (expected one of "
                            + String.join(", ", allowed.stream().sorted().toList())
                            + ")");
        }
    }

    private static void time(String what, String field, String value) {
        try {
            Times.parse(value);
        } catch (DateTimeParseException e) {
            throw new SnapshotException(
                    what + field + ": not an RFC 3339 timestamp: \"" + value + "\"", e);
        }
    }
}
