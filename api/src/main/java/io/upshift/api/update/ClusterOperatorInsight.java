package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * One ClusterOperator of the control plane: {@code Updating} (Updated, Pending, Progressing,
 * CannotDetermine) and {@code Healthy} (AsExpected, Unavailable, Degraded, CannotDetermine). While
 * the operator progresses, the Updating condition carries the operator's own Progressing message
 * and transition time, and {@code progressingReason} (an Upshift addition) its reason.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterOperatorInsight(
        List<Condition> conditions, String name, ResourceRef resource, String progressingReason) {
    public static final String UPDATING = "Updating";
    public static final String HEALTHY = "Healthy";
}
