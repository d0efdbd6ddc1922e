package io.upshift.pools.metrics;

import java.util.List;

/**
 * What the pool controller exports, under the machine-config controller's names and labels (<a
 * href="https://github.com/openshift/machine-config-operator/blob/main/pkg/controller/common/metrics.go">pkg/controller/common/metrics.go</a>),
 * and Upshift's own under {@code upshift_}.
 */
public final class ControllerFamilies {
    private ControllerFamilies() {}

    /**
     * Upstream's drain controller sets it when a node's drain failed past its timeout; Upshift's
     * agent drains, and the controller reads the outcome from the node's Degraded reason.
     */
    public static final Family DRAIN_ERR =
            Family.gauge(
                    "mcc_drain_err",
                    "1 when the node's agent gave up draining it (the node is Degraded with a"
                            + " drain failure), 0 otherwise.",
                    "node");

    public static final Family POOL_ALERT =
            Family.gauge(
                    "mcc_pool_alert",
                    "1 when more than one pool besides worker selects the node, so that one pool's"
                            + " config is chosen over another's; 0 otherwise.",
                    "node");

    public static final Family MACHINE_COUNT =
            Family.gauge("mco_machine_count", "The number of machines in the pool.", "pool");

    public static final Family UPDATED_MACHINE_COUNT =
            Family.gauge(
                    "mco_updated_machine_count",
                    "The number of the pool's machines on its current config.",
                    "pool");

    public static final Family DEGRADED_MACHINE_COUNT =
            Family.gauge(
                    "mco_degraded_machine_count",
                    "The number of the pool's machines that are Degraded.",
                    "pool");

    public static final Family UNAVAILABLE_MACHINE_COUNT =
            Family.gauge(
                    "mco_unavailable_machine_count",
                    "The number of the pool's machines that are unavailable (updating or not"
                            + " ready).",
                    "pool");

    /** Upshift's: upstream reports a paused required pool only as the operator's Degraded. */
    public static final Family POOL_PAUSED =
            Family.gauge(
                    "upshift_pool_paused",
                    "1 when the pool is paused (spec.paused), 0 otherwise; required is \"true\""
                            + " for a pool an update must finish (the label"
                            + " operator.machineconfiguration.openshift.io/required-for-upgrade).",
                    "pool",
                    "required");

    /**
     * Upshift's: a rollout control holds the pool's next node (its RolloutHeld condition), so that
     * an alert can tell a pool held on purpose from one stalled.
     */
    public static final Family POOL_ROLLOUT_HELD =
            Family.gauge(
                    "upshift_pool_rollout_held",
                    "1 when a rollout control holds the pool's next node (its RolloutHeld"
                            + " condition is True), 0 otherwise; reason is the control"
                            + " (MaintenanceWindow, HealthGate, Canaries, SoakTime, CanaryHalted),"
                            + " \"\" when none.",
                    "pool",
                    "reason");

    public static final List<Family> ALL =
            List.of(
                    DRAIN_ERR,
                    POOL_ALERT,
                    MACHINE_COUNT,
                    UPDATED_MACHINE_COUNT,
                    DEGRADED_MACHINE_COUNT,
                    UNAVAILABLE_MACHINE_COUNT,
                    POOL_PAUSED,
                    POOL_ROLLOUT_HELD);
}
