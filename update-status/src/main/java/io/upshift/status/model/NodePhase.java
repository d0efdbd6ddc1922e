package io.upshift.status.model;

/** Where a node is in its update, in the order nodes are listed. */
public enum NodePhase {
    Draining,
    Updating,
    Rebooting,
    Paused,
    Pending,
    Updated
}
