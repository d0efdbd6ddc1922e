package io.upshift.clusterversion.metrics;

import java.util.List;

/**
 * The gauges the cluster-version operator exports, with upstream's names and labels (<a
 * href="https://github.com/openshift/cluster-version-operator/blob/main/pkg/cvo/metrics.go">pkg/cvo/metrics.go</a>,
 * {@code cluster_version_payload} from pkg/cvo/sync_worker.go): dashboards, alerts and telemetry
 * written for OpenShift read an Upshift cluster's metrics unchanged. Times are seconds since the
 * epoch.
 */
public final class Gauges {

    /** A gauge: its name, HELP text and label names. */
    public record Gauge(String name, String help, List<String> labels) {}

    public static final Gauge CLUSTER_VERSION =
            new Gauge(
                    "cluster_version",
                    "Reports the version of the cluster in terms of seconds since the epoch. Type"
                        + " 'current' is the version this operator runs, valued at its payload's"
                        + " creation date; 'desired' is a spec.desiredUpdate not yet reached,"
                        + " valued at the most recent status change; 'failure' is set while"
                        + " Failing=True, valued at its last transition; 'completed' is the last"
                        + " update applied in full, valued at its completion; 'cluster' is the"
                        + " current version, valued at the ClusterVersion's creation; 'updating' is"
                        + " an update under way, valued at its start; 'initial' is the oldest"
                        + " history entry, valued at the ClusterVersion's creation. from_version is"
                        + " the last completed version for most types, the initial version for"
                        + " 'cluster', empty for 'initial' and the version completed before for"
                        + " 'completed'.",
                    List.of("type", "version", "image", "from_version"));
    public static final Gauge AVAILABLE_UPDATES =
            new Gauge(
                    "cluster_version_available_updates",
                    "Report the count of available versions for an upstream and channel.",
                    List.of("upstream", "channel"));
    public static final Gauge CAPABILITY =
            new Gauge(
                    "cluster_version_capability",
                    "Report currently enabled cluster capabilities.  0 is disabled, and 1 is"
                            + " enabled.",
                    List.of("name"));
    public static final Gauge PAYLOAD =
            new Gauge(
                    "cluster_version_payload",
                    "Report the number of entries in the payload.",
                    List.of("version", "type"));
    public static final Gauge OPERATOR_UP =
            new Gauge(
                    "cluster_operator_up",
                    "1 if a cluster operator is Available=True.  0 otherwise, including if a"
                        + " cluster operator sets no Available condition.  The 'version' label"
                        + " tracks the 'operator' version.  The 'reason' label is passed through"
                        + " from the Available condition, unless the cluster operator sets no"
                        + " Available condition, in which case NoAvailableCondition is used.",
                    List.of("name", "version", "reason"));
    public static final Gauge OPERATOR_CONDITIONS =
            new Gauge(
                    "cluster_operator_conditions",
                    "Report the conditions for active cluster operators. 0 is False and 1 is True.",
                    List.of("name", "condition", "reason"));
    public static final Gauge RISK_CONDITIONS =
            new Gauge(
                    "cluster_version_risk_conditions",
                    "Report the risk conditions for the cluster version. -1 is Unknown, 0 is False"
                            + " and 1 is True.",
                    List.of("condition", "risk", "reason"));
    public static final Gauge CONDITION_TRANSITIONS =
            new Gauge(
                    "cluster_operator_condition_transitions",
                    "Reports the number of times that a condition on a cluster operator changes"
                            + " status",
                    List.of("name", "condition"));
    public static final Gauge INSTALLER =
            new Gauge(
                    "cluster_installer",
                    "Reports info about the installation process and, if applicable, the install"
                        + " tool. The type is either 'openshift-install', indicating that"
                        + " openshift-install was used to install the cluster, or 'other',"
                        + " indicating that an unknown process installed the cluster. The invoker"
                        + " is 'user' by default, but it may be overridden by a consuming tool. The"
                        + " version reported is that of the openshift-install that was used to"
                        + " generate the manifests and, if applicable, provision the"
                        + " infrastructure.",
                    List.of("type", "version", "invoker"));
    public static final Gauge UPDATE_RETRIEVAL =
            new Gauge(
                    "cluster_version_operator_update_retrieval_timestamp_seconds",
                    "Reports when updates were last successfully retrieved.",
                    List.of("name"));
    public static final Gauge CONDITIONAL_UPDATE_CONDITION =
            new Gauge(
                    "cluster_version_conditional_update_condition_seconds",
                    "Reports when the Recommended condition status on a conditional update changed"
                            + " to its current state.",
                    List.of("version", "condition", "status", "reason"));

    /** Upshift's own: upstream has no estimate of an update's end. */
    public static final Gauge UPDATE_ESTIMATE =
            new Gauge(
                    "upshift_update_estimated_completion_timestamp_seconds",
                    "When the update under way should have its control plane done, as the estimate"
                            + " from the run-level times predicts (upshift status shows the same):"
                            + " seconds since the epoch. No row without an update or an estimate.",
                    List.of("version"));

    public static final List<Gauge> ALL =
            List.of(
                    CLUSTER_VERSION,
                    AVAILABLE_UPDATES,
                    CAPABILITY,
                    PAYLOAD,
                    OPERATOR_UP,
                    OPERATOR_CONDITIONS,
                    RISK_CONDITIONS,
                    CONDITION_TRANSITIONS,
                    INSTALLER,
                    UPDATE_RETRIEVAL,
                    CONDITIONAL_UPDATE_CONDITION,
                    UPDATE_ESTIMATE);

    private Gauges() {}
}
