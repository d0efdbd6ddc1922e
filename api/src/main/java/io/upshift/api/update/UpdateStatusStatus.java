package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Everything known about the update: the control plane and each worker pool, each with its insights. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record UpdateStatusStatus(List<Condition> conditions, ControlPlane controlPlane, List<Pool> workerPools) {
    public UpdateStatusStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        workerPools = workerPools == null ? List.of() : List.copyOf(workerPools);
    }

    /** Every insight: the control plane's informers first, then each worker pool's, each in informer order. */
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
