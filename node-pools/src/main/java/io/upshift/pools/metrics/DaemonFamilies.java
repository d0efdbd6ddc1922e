package io.upshift.pools.metrics;

import java.util.List;

/**
 * What the node agent exports, under the machine-config daemon's names and labels (<a
 * href="https://github.com/openshift/machine-config-operator/blob/main/pkg/daemon/metrics.go">pkg/daemon/metrics.go</a>)
 * so that upstream's alerts and dashboards read them, and Upshift's own under {@code upshift_}.
 * Timestamps are seconds since the epoch, as upstream's {@code SetToCurrentTime}.
 */
public final class DaemonFamilies {
    private DaemonFamilies() {}

    public static final Family STATE =
            Family.gauge(
                    "mcd_state",
                    "The agent's state on its node (Done, Working, Rebooting, Degraded,"
                            + " Unreconcilable) and its reason, valued at when it was entered.",
                    "state",
                    "reason");

    public static final Family UPDATE_STATE =
            Family.gauge(
                    "mcd_update_state",
                    "The config of the agent's last update and its error (empty when it was"
                            + " applied), valued at when that update ended.",
                    "config",
                    "err");

    /**
     * Upstream's daemon exported this while it drained (it has since moved to the controller as
     * {@code mcc_drain_err}); Upshift's agent drains, so it exports both meanings: here, of this
     * node.
     */
    public static final Family DRAIN_ERR =
            Family.gauge(
                    "mcd_drain_err",
                    "1 when the agent's last drain gave up (its evictions refused until"
                            + " --drain-timeout), 0 otherwise.");

    public static final Family REBOOTS_FAILED =
            Family.counter("mcd_reboots_failed_total", "Reboots the agent asked for that failed.");

    public static final Family PIVOT_ERRORS =
            Family.counter(
                    "mcd_pivot_errors_total",
                    "Errors the agent met staging the OS image of a config (upstream's pivot).");

    /** Upshift's: upstream's daemon reports a drain only once it failed. */
    public static final Family DRAIN_REFUSED =
            Family.gauge(
                    "upshift_drain_refused_seconds",
                    "How long, in seconds, the drain under way has had evictions refused, by the"
                            + " PodDisruptionBudget (namespace/name) that first refused one; no"
                            + " row while no drain is refused.",
                    "budget");

    public static final List<Family> ALL =
            List.of(STATE, UPDATE_STATE, DRAIN_ERR, REBOOTS_FAILED, PIVOT_ERRORS, DRAIN_REFUSED);
}
