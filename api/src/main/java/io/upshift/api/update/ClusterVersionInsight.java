package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The control plane update as the ClusterVersion shows it. Times are RFC 3339 with the precision
 * they were observed at; {@code estimatedCompletedAt} (oc's estimate) and {@code upshiftEstimate}
 * are absent once the control plane is done.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterVersionInsight(
        List<Condition> conditions,
        ResourceRef resource,
        String assessment,
        ControlPlaneVersions versions,
        Integer completion,
        String startedAt,
        String completedAt,
        String estimatedCompletedAt,
        UpshiftEstimate upshiftEstimate) {
    /** Condition type saying whether the control plane is updating. */
    public static final String UPDATING = "Updating";

    public ClusterVersionInsight withUpshiftEstimate(UpshiftEstimate estimate) {
        return new ClusterVersionInsight(
                conditions,
                resource,
                assessment,
                versions,
                completion,
                startedAt,
                completedAt,
                estimatedCompletedAt,
                estimate);
    }
}
