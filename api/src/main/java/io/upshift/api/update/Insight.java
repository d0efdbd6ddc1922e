package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One insight, identified by a uid that stays the same while it describes the same thing. A
 * discriminated union: {@code type} names which one of the members is set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Insight(
        String uid,
        String acquiredAt,
        InsightType type,
        ClusterVersionInsight clusterVersion,
        ClusterOperatorInsight clusterOperator,
        PoolInsight machineConfigPool,
        NodeInsight node,
        HealthInsight health) {

    public static Insight of(String uid, String acquiredAt, ClusterVersionInsight v) {
        return new Insight(uid, acquiredAt, InsightType.ClusterVersion, v, null, null, null, null);
    }

    public static Insight of(String uid, String acquiredAt, ClusterOperatorInsight v) {
        return new Insight(uid, acquiredAt, InsightType.ClusterOperator, null, v, null, null, null);
    }

    public static Insight of(String uid, String acquiredAt, PoolInsight v) {
        return new Insight(
                uid, acquiredAt, InsightType.MachineConfigPool, null, null, v, null, null);
    }

    public static Insight of(String uid, String acquiredAt, NodeInsight v) {
        return new Insight(uid, acquiredAt, InsightType.Node, null, null, null, v, null);
    }

    public static Insight of(String uid, String acquiredAt, HealthInsight v) {
        return new Insight(uid, acquiredAt, InsightType.Health, null, null, null, null, v);
    }

    public Insight withAcquiredAt(String when) {
        return new Insight(
                uid, when, type, clusterVersion, clusterOperator, machineConfigPool, node, health);
    }
}
