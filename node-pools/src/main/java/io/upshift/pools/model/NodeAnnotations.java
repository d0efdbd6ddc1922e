package io.upshift.pools.model;

/**
 * The node annotations and taint through which the pool controller, the node agent and the status
 * readers (ours and {@code oc adm upgrade status}) talk, as the machine-config operator defines
 * them.
 */
public final class NodeAnnotations {
    public static final String PREFIX = "machineconfiguration.openshift.io/";

    /** The config the agent last applied; written by the agent. */
    public static final String CURRENT_CONFIG = PREFIX + "currentConfig";

    /** The config the node should run; written by the pool controller. */
    public static final String DESIRED_CONFIG = PREFIX + "desiredConfig";

    /** Done, Working, Rebooting, Degraded or Unreconcilable; written by the agent. */
    public static final String STATE = PREFIX + "state";

    /** Why the agent is degraded; empty otherwise. */
    public static final String REASON = PREFIX + "reason";

    /** {@code drain-<config>} or {@code uncordon-<config>}: what the agent asked for. */
    public static final String DESIRED_DRAIN = PREFIX + "desiredDrain";

    /** The drain request that was carried out. */
    public static final String LAST_APPLIED_DRAIN = PREFIX + "lastAppliedDrain";

    /** On rendered MachineConfigs: the release version that rendered them. */
    public static final String RELEASE_IMAGE_VERSION = PREFIX + "release-image-version";

    /**
     * Upstream's annotation on the MachineConfigs a controller generates (base and rendered
     * configs), with that controller's version (here: its release).
     */
    public static final String GENERATED_BY = PREFIX + "generated-by-controller-version";

    /**
     * Upshift's agent: when it last started taking a config (written with Working) and when it was
     * last Done with one (written with Done), RFC 3339 to the millisecond; their difference is the
     * node's measured update time, which Upshift's estimate uses (upstream's daemon writes
     * neither).
     */
    public static final String UPDATE_STARTED_AT = "upshift.io/update-started-at";

    public static final String UPDATE_DONE_AT = "upshift.io/update-done-at";

    /** Nodes chosen for an update get this taint, so new workloads prefer other nodes. */
    public static final String UPDATE_TAINT = "UpdateInProgress";

    public static final String DONE = "Done",
            WORKING = "Working",
            REBOOTING = "Rebooting",
            DEGRADED = "Degraded";

    /** The agent cannot take its config in place (the reason says why); counted as degraded. */
    public static final String UNRECONCILABLE = "Unreconcilable";

    private NodeAnnotations() {}
}
