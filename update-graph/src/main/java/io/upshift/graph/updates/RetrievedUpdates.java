package io.upshift.graph.updates;

import java.util.List;

/**
 * What the update graph offers the cluster: its current release, unconditional and conditional
 * targets.
 */
public record RetrievedUpdates(
        Target current, List<Target> available, List<ConditionalTarget> conditional) {

    public RetrievedUpdates {
        available = List.copyOf(available);
        conditional = List.copyOf(conditional);
    }
}
