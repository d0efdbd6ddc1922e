package io.upshift.clusterversion.model;

import java.time.Instant;

/** Why a task (a manifest, or a ClusterOperator to wait for) is not done, and since when. */
public record TaskError(
        String name, String reason, String message, OperatorLevel.Effect effect, Instant since) {}
