package io.upshift.pools.machineconfignode;

/**
 * The conditions of a MachineConfigNode's status, as upstream's daemon keeps them (openshift/api
 * {@code StateProgress}; the set and order of {@code allConditionTypes} in machine-config-operator
 * pkg/upgrademonitor/upgrade_monitor.go without the image-mode and pinned-image feature gates). A
 * node's first report carries every one of them, those not reached yet as {@code False}, reason
 * {@code NotYetOccurred}.
 */
public enum ConditionType {
    UpdatePrepared,
    UpdateExecuted,
    UpdatePostActionComplete,
    UpdateComplete,
    Resumed,
    Drained,
    AppliedFilesAndOS,
    Cordoned,
    RebootedNode,
    Updated,
    Uncordoned,
    NodeDegraded;

    /**
     * The type named {@code name}, or null for a type Upshift does not write (upstream's pinned
     * image sets, say).
     */
    public static ConditionType of(String name) {
        for (ConditionType t : values()) {
            if (t.name().equals(name)) return t;
        }
        return null;
    }
}
