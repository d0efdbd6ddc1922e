package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * One node: conditions {@code Updating} (True: Draining, Updating, Rebooting; False: Paused,
 * Pending, Completed), {@code Available} and {@code Degraded}; the version it runs, the estimated
 * time to complete (a Go duration string) and a message explaining an unusual state; Upshift's own
 * estimate of when the node is done, while it is not.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeInsight(
        List<Condition> conditions,
        String name,
        ResourceRef resource,
        ResourceRef poolResource,
        ScopeType scopeType,
        String version,
        String estToComplete,
        String message,
        UpshiftEstimate upshiftEstimate) {
    public static final String UPDATING = "Updating";
    public static final String AVAILABLE = "Available";
    public static final String DEGRADED = "Degraded";
}
