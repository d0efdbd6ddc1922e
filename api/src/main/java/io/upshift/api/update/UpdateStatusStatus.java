package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything known about the update: the control plane and each worker pool, each with its
 * insights. As the controller writes it, it is a summary: the ClusterVersion and pool insights, and
 * in {@code insightObjects} where the insights kept as objects of their own are (one per node,
 * operator, pool, cluster version and health insight).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record UpdateStatusStatus(
        List<Condition> conditions,
        ControlPlane controlPlane,
        List<Pool> workerPools,
        List<InsightObjects> insightObjects) {
    public UpdateStatusStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        workerPools = workerPools == null ? List.of() : List.copyOf(workerPools);
        insightObjects = insightObjects == null ? List.of() : List.copyOf(insightObjects);
    }

    /** A status holding every insight itself. */
    public UpdateStatusStatus(
            List<Condition> conditions, ControlPlane controlPlane, List<Pool> workerPools) {
        this(conditions, controlPlane, workerPools, null);
    }

    /**
     * Every insight: the control plane's informers first, then each worker pool's, each in informer
     * order.
     */
    @JsonIgnore
    public List<Insight> insights() {
        List<Insight> all = new ArrayList<>();
        if (controlPlane != null) {
            controlPlane.informers().forEach(i -> all.addAll(i.insights()));
        }
        workerPools.forEach(p -> p.informers().forEach(i -> all.addAll(i.insights())));
        return all;
    }
}
