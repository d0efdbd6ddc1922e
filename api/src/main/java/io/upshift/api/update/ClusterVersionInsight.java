package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The control plane update as the ClusterVersion shows it. Times are RFC 3339 with the precision they were observed
 * at; {@code estimatedCompletedAt} is absent once the control plane is done.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterVersionInsight(List<Condition> conditions, ResourceRef resource, String assessment,
                                    ControlPlaneVersions versions, Integer completion, String startedAt,
                                    String completedAt, String estimatedCompletedAt) {
    /** Condition type saying whether the control plane is updating. */
    public static final String UPDATING = "Updating";
}
