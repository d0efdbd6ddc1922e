package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where the insights of one kind are kept: objects of {@code resource} (in {@code
 * update.openshift.io}), how many, and their names where the summary lists them (every kind but
 * nodes, whose insights are named as the nodes are; health insights in the order they were raised).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record InsightObjects(String resource, int count, List<String> names) {
    public InsightObjects {
        names = names == null ? List.of() : List.copyOf(names);
    }
}
