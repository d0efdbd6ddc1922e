package io.upshift.pools.model;

/**
 * The event the node agent records on a node when a PodDisruptionBudget refuses its drain an
 * eviction (the first refusal of a drain, naming the pod and the budget); update status reads these
 * events to name a stalled drain.
 */
public final class DrainEvents {
    public static final String REASON = "DrainBlocked";

    private DrainEvents() {}
}
