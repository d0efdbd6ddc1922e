package io.upshift.api.update;

/** The discriminator of {@link Insight}. */
public enum InsightType {
    ClusterVersion,
    ClusterOperator,
    MachineConfigPool,
    Node,
    Health
}
