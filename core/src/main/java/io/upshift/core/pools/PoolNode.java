package io.upshift.core.pools;

import java.time.Instant;

/**
 * What the node controller needs to know of a node: its configs (current, desired), the agent's state, readiness,
 * zone and age, and whether it runs the controller itself.
 *
 * @param state     the agent's state annotation: Done, Working, Degraded, Unreconcilable, Rebooting ("" when unset)
 * @param ready     Ready=True, no DiskPressure or NetworkUnavailable, schedulable
 * @param zone      {@code topology.kubernetes.io/zone}, "" when unset
 */
public record PoolNode(String name, String currentConfig, String desiredConfig, String state, boolean ready, String zone,
                       Instant created, boolean runsController) {

    /** Not available for workloads: not ready, or its agent is busy with a config (and not stuck failing on it). */
    public boolean unavailable() {
        return !ready || (!"Done".equals(state) && !failing());
    }

    public boolean failing() {
        return "Degraded".equals(state) || "Unreconcilable".equals(state);
    }
}
