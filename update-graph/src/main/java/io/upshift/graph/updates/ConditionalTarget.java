package io.upshift.graph.updates;

import io.upshift.graph.model.Risk;
import java.util.List;

/** A target recommended only where none of its risks applies. */
public record ConditionalTarget(Target release, List<Risk> risks) {

    public ConditionalTarget {
        risks = List.copyOf(risks);
    }
}
