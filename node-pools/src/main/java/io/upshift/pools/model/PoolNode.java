package io.upshift.pools.model;

import java.time.Instant;

/**
 * What the node controller needs to know of a node: its configs (current, desired), the agent's
 * state, readiness, zone and age, and whether it runs the controller itself.
 *
 * @param state the agent's state annotation: Done, Working, Degraded, Unreconcilable, Rebooting (""
 *     when unset)
 * @param reason the agent's reason annotation (why it is degraded)
 * @param ready Ready=True, no DiskPressure or NetworkUnavailable, schedulable
 * @param zone {@code topology.kubernetes.io/zone}, "" when unset
 * @param healthySince when the node was last done with a config and ready: the later of the agent's
 *     {@code upshift.io/update-done-at} and the Ready condition's transition; null when unknown (an
 *     agent that does not write the annotation)
 */
public record PoolNode(
        String name,
        String currentConfig,
        String desiredConfig,
        String state,
        String reason,
        boolean ready,
        String zone,
        Instant created,
        boolean runsController,
        Instant healthySince) {

    public PoolNode(
            String name,
            String currentConfig,
            String desiredConfig,
            String state,
            String reason,
            boolean ready,
            String zone,
            Instant created,
            boolean runsController) {
        this(
                name,
                currentConfig,
                desiredConfig,
                state,
                reason,
                ready,
                zone,
                created,
                runsController,
                null);
    }

    /**
     * Not available for workloads: not ready, or told a config it has not finished applying (and
     * not stuck failing on it). A node told a new config counts at once, before its agent has even
     * noticed, so that the next pass never picks more than maxUnavailable. A node never told any
     * config (one that joined without annotations) is available.
     */
    public boolean unavailable() {
        return !ready || (!desiredConfig.isEmpty() && !done() && !failing());
    }

    /** The node once the controller has told it {@code config}: everything else as it was. */
    public PoolNode told(String config) {
        return new PoolNode(
                name,
                currentConfig,
                config,
                state,
                reason,
                ready,
                zone,
                created,
                runsController,
                healthySince);
    }

    /** Its agent applied the config it was told and is idle. */
    public boolean done() {
        return "Done".equals(state) && currentConfig.equals(desiredConfig);
    }

    public boolean failing() {
        return "Degraded".equals(state) || "Unreconcilable".equals(state);
    }
}
