package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** A worker pool (a MachineConfigPool other than master) and the insights about it. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Pool(
        List<Condition> conditions, String name, ResourceRef resource, List<Informer> informers) {
    public Pool {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        informers = informers == null ? List.of() : List.copyOf(informers);
    }
}
