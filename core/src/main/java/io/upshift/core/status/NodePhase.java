package io.upshift.core.status;

/** Where a node is in its update, in the order nodes are listed. */
public enum NodePhase {
    Draining,
    Updating,
    Rebooting,
    Paused,
    Pending,
    Updated
}
