package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The control plane: its resource (the ClusterVersion), its node pool, and the insights of its
 * informers.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ControlPlane(
        List<Condition> conditions,
        ResourceRef resource,
        ResourceRef poolResource,
        List<Informer> informers) {
    public ControlPlane {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        informers = informers == null ? List.of() : List.copyOf(informers);
    }
}
