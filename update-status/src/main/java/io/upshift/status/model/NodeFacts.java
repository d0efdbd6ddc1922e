package io.upshift.status.model;

import java.time.Instant;
import java.util.List;

/**
 * What the assessment concluded about one node.
 *
 * @param estimate nanoseconds to complete; null when unknown ("?"), 0 when nothing is left ("-")
 * @param message the message shown for the node, with a long node name replaced by {@code <node>}
 * @param unavailable the reasons the node is unavailable, as the machine-config operator words them
 */
public record NodeFacts(
        String name,
        NodeAssessment assessment,
        NodePhase phase,
        String version,
        Long estimate,
        String message,
        boolean isUnavailable,
        boolean isDegraded,
        boolean isUpdating,
        boolean isUpdated,
        List<UnavailableReason> unavailable,
        String degradedReason) {

    /** One reason a node cannot take work, with the condition behind it (if any). */
    public record UnavailableReason(String reason, String conditionMessage, Instant since) {}
}
