package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * A MachineConfigPool: its assessment, completion percentage, node counts by kind, and Upshift's
 * estimate of its end.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PoolInsight(
        List<Condition> conditions,
        String name,
        ResourceRef resource,
        ScopeType scopeType,
        String assessment,
        Integer completion,
        List<Summary> summaries,
        UpshiftEstimate upshiftEstimate) {

    /**
     * A count of nodes of one kind: Total, Available, Progressing, Outdated, Draining, Excluded,
     * Degraded.
     */
    public record Summary(String type, int count) {}

    public int count(String type) {
        return summaries == null
                ? 0
                : summaries.stream()
                        .filter(s -> s.type().equals(type))
                        .mapToInt(Summary::count)
                        .sum();
    }
}
