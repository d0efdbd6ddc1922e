package io.upshift.clusterversion.metrics;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.clusterversion.model.History;
import io.upshift.clusterversion.model.KeptCapabilities;
import io.upshift.graph.risk.RiskCondition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows about the ClusterVersion and the controller that upstream's collector exports (<a
 * href="https://github.com/openshift/cluster-version-operator/blob/main/pkg/cvo/metrics.go">Collect</a>):
 * {@code cluster_version} by type, available updates, capabilities, the {@code name="version"} rows
 * of {@code cluster_operator_up} and {@code cluster_operator_conditions}, conditional updates and
 * their risks, the payload's progress and when updates were last retrieved.
 */
public final class ClusterVersionSamples {

    static final String NOT_FOUND = "ClusterVersionNotFound";

    private ClusterVersionSamples() {}

    /**
     * The rows for {@code cv} (null: it does not exist) and what the controller of this process
     * knows.
     */
    public static List<Sample> of(ClusterVersion cv, ControllerFacts facts) {
        List<Sample> out = new ArrayList<>();
        ClusterVersionStatus status =
                cv == null || cv.getStatus() == null ? new ClusterVersionStatus() : cv.getStatus();
        List<UpdateHistory> history = status.getHistory() == null ? List.of() : status.getHistory();
        UpdateHistory completed = null, beforeCompleted = null;
        for (UpdateHistory h : history) {
            if (!History.COMPLETED.equals(h.getState())) continue;
            if (completed == null) completed = h;
            else if (beforeCompleted == null) beforeCompleted = h;
        }
        String completedVersion = completed == null ? "" : completed.getVersion();
        Release current = current(status, history, facts);
        if (cv == null) {
            out.add(
                    Sample.of(
                            Gauges.OPERATOR_UP.name(),
                            0,
                            "name",
                            "version",
                            "version",
                            "",
                            "reason",
                            NOT_FOUND));
            out.add(
                    Sample.of(
                            Gauges.OPERATOR_CONDITIONS.name(),
                            0,
                            "name",
                            "version",
                            "condition",
                            "Available",
                            "reason",
                            NOT_FOUND));
        } else {
            double created =
                    seconds(
                            cv.getMetadata() == null
                                    ? null
                                    : cv.getMetadata().getCreationTimestamp());
            if (completed != null) {
                out.add(
                        version(
                                "completed",
                                completed.getVersion(),
                                completed.getImage(),
                                beforeCompleted == null ? "" : beforeCompleted.getVersion(),
                                seconds(completed.getCompletionTime())));
            }
            UpdateHistory initial =
                    history.isEmpty() ? new UpdateHistory() : history.get(history.size() - 1);
            out.add(version("initial", initial.getVersion(), initial.getImage(), "", created));
            // the initial version is left out while the cluster never reached a level (still
            // installing)
            out.add(
                    version(
                            "cluster",
                            current.version(),
                            current.image(),
                            completed == null ? "" : initial.getVersion(),
                            created));
            Update desired = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
            boolean unreached = unreached(desired, current);
            if (unreached)
                out.add(
                        version(
                                "desired",
                                desired.getVersion(),
                                desired.getImage(),
                                completedVersion,
                                mostRecentChange(cv)));
            ClusterOperatorStatusCondition failing =
                    Conditions.CLUSTER.find(status.getConditions(), "Failing");
            if (failing != null && "True".equals(failing.getStatus())) {
                out.add(
                        unreached
                                ? version(
                                        "failure",
                                        desired.getVersion(),
                                        desired.getImage(),
                                        completedVersion,
                                        seconds(failing.getLastTransitionTime()))
                                : version(
                                        "failure",
                                        current.version(),
                                        current.image(),
                                        completedVersion,
                                        seconds(failing.getLastTransitionTime())));
            }
            if (!history.isEmpty() && History.PARTIAL.equals(history.get(0).getState())) {
                UpdateHistory updating = history.get(0);
                out.add(
                        version(
                                "updating",
                                updating.getVersion(),
                                updating.getImage(),
                                completedVersion,
                                seconds(updating.getStartedTime())));
            }
            availableUpdates(cv, status, out);
            capabilities(cv, status, out);
            versionConditions(status, completedVersion, out);
            conditionalUpdates(status, out);
            risks(facts.risks(), out);
        }
        if (facts.runningImage() != null) {
            out.add(
                    version(
                            "current",
                            current.version(),
                            current.image(),
                            completedVersion,
                            (double)
                                    (facts.runningCreated() == null
                                            ? 0
                                            : facts.runningCreated().getEpochSecond())));
        }
        if (facts.payload() != null) {
            ControllerFacts.PayloadProgress p = facts.payload();
            out.add(
                    Sample.of(
                            Gauges.PAYLOAD.name(),
                            p.total() - p.done(),
                            "version",
                            p.version(),
                            "type",
                            "pending"));
            out.add(
                    Sample.of(
                            Gauges.PAYLOAD.name(),
                            p.done(),
                            "version",
                            p.version(),
                            "type",
                            "applied"));
        }
        if (facts.updatesRetrieved() != null) {
            out.add(
                    Sample.of(
                            Gauges.UPDATE_RETRIEVAL.name(),
                            (double) facts.updatesRetrieved().getEpochSecond(),
                            "name",
                            ""));
        }
        return out;
    }

    /** A release by version and image. */
    private record Release(String version, String image) {}

    /**
     * The release this operator runs: upstream's is its own payload's. With no controller here, the
     * release the cluster status names. A version not learnt from the payload is taken from
     * history's entry of the same image.
     */
    private static Release current(
            ClusterVersionStatus status, List<UpdateHistory> history, ControllerFacts facts) {
        if (facts.runningImage() == null) {
            return status.getDesired() == null
                    ? new Release("", "")
                    : new Release(status.getDesired().getVersion(), status.getDesired().getImage());
        }
        String version = facts.runningVersion();
        if (version == null
                && status.getDesired() != null
                && facts.runningImage().equals(status.getDesired().getImage())) {
            version = status.getDesired().getVersion();
        }
        for (UpdateHistory h : history) {
            if (version != null) break;
            if (facts.runningImage().equals(h.getImage())) version = h.getVersion();
        }
        return new Release(version, facts.runningImage());
    }

    /**
     * A desired update this operator does not run yet. Upstream compares images; a desired update
     * given by version alone (as {@code oc adm upgrade --to} writes it) is compared by version, or
     * it would stay "desired" for good.
     */
    private static boolean unreached(Update desired, Release current) {
        if (desired == null) return false;
        if (!empty(desired.getImage())) return !desired.getImage().equals(current.image());
        return !empty(desired.getVersion()) && !desired.getVersion().equals(current.version());
    }

    private static Sample version(
            String type, String version, String image, String from, double value) {
        return Sample.of(
                Gauges.CLUSTER_VERSION.name(),
                value,
                "type",
                type,
                "version",
                version,
                "image",
                image,
                "from_version",
                from);
    }

    /** Reported once there is an upstream, an available update or a retrieval that succeeded. */
    private static void availableUpdates(
            ClusterVersion cv, ClusterVersionStatus status, List<Sample> out) {
        String upstream = cv.getSpec() == null ? null : cv.getSpec().getUpstream();
        int count = status.getAvailableUpdates() == null ? 0 : status.getAvailableUpdates().size();
        if (empty(upstream)
                && count == 0
                && !Conditions.CLUSTER.isTrue(status.getConditions(), "RetrievedUpdates")) return;
        out.add(
                Sample.of(
                        Gauges.AVAILABLE_UPDATES.name(),
                        count,
                        "upstream",
                        empty(upstream) ? "<default>" : upstream,
                        "channel",
                        cv.getSpec().getChannel()));
    }

    /**
     * 1 for each enabled capability (those the installed CRD kept out of status too: {@link
     * KeptCapabilities}), 0 for each known one that is not.
     */
    private static void capabilities(
            ClusterVersion cv, ClusterVersionStatus status, List<Sample> out) {
        if (status.getCapabilities() == null) return;
        Set<String> enabled = KeptCapabilities.enabledBefore(cv);
        List<String> known =
                status.getCapabilities().getKnownCapabilities() == null
                        ? List.of()
                        : status.getCapabilities().getKnownCapabilities();
        Set<String> seen = new HashSet<>();
        for (String c : enabled)
            if (seen.add(c)) out.add(Sample.of(Gauges.CAPABILITY.name(), 1, "name", c));
        for (String c : known)
            if (seen.add(c)) out.add(Sample.of(Gauges.CAPABILITY.name(), 0, "name", c));
    }

    /**
     * The ClusterVersion's own conditions, as those of an operator named "version"; Available also
     * as its up row.
     */
    private static void versionConditions(
            ClusterVersionStatus status, String completedVersion, List<Sample> out) {
        if (status.getConditions() == null) return;
        for (ClusterOperatorStatusCondition c : status.getConditions()) {
            double value;
            if ("True".equals(c.getStatus())) value = 1;
            else if ("False".equals(c.getStatus())) value = 0;
            else continue;
            if ("Available".equals(c.getType())) {
                out.add(
                        Sample.of(
                                Gauges.OPERATOR_UP.name(),
                                value,
                                "name",
                                "version",
                                "version",
                                completedVersion,
                                "reason",
                                c.getReason()));
            }
            out.add(
                    Sample.of(
                            Gauges.OPERATOR_CONDITIONS.name(),
                            value,
                            "name",
                            "version",
                            "condition",
                            c.getType(),
                            "reason",
                            c.getReason()));
        }
    }

    private static void conditionalUpdates(ClusterVersionStatus status, List<Sample> out) {
        if (status.getConditionalUpdates() == null) return;
        for (ConditionalUpdate u : status.getConditionalUpdates()) {
            if (u.getConditions() == null) continue;
            String version = u.getRelease() == null ? "" : u.getRelease().getVersion();
            for (Condition c : u.getConditions()) {
                if (!"Recommended".equals(c.getType())) continue;
                out.add(
                        Sample.of(
                                Gauges.CONDITIONAL_UPDATE_CONDITION.name(),
                                seconds(c.getLastTransitionTime()),
                                "version",
                                version,
                                "condition",
                                c.getType(),
                                "status",
                                c.getStatus(),
                                "reason",
                                c.getReason()));
            }
        }
    }

    private static void risks(Map<String, RiskCondition> risks, List<Sample> out) {
        risks.forEach(
                (name, c) -> {
                    if (!"Applies".equals(c.type())) return;
                    double value =
                            "True".equals(c.status()) ? 1 : "Unknown".equals(c.status()) ? -1 : 0;
                    out.add(
                            Sample.of(
                                    Gauges.RISK_CONDITIONS.name(),
                                    value,
                                    "condition",
                                    c.type(),
                                    "risk",
                                    name,
                                    "reason",
                                    c.reason()));
                });
    }

    /**
     * The latest of history[0]'s start and completion, the conditions' transitions and the object's
     * creation.
     */
    private static double mostRecentChange(ClusterVersion cv) {
        double latest =
                seconds(cv.getMetadata() == null ? null : cv.getMetadata().getCreationTimestamp());
        ClusterVersionStatus s = cv.getStatus();
        if (s != null && s.getHistory() != null && !s.getHistory().isEmpty()) {
            latest =
                    Math.max(
                            latest,
                            Math.max(
                                    seconds(s.getHistory().get(0).getStartedTime()),
                                    seconds(s.getHistory().get(0).getCompletionTime())));
        }
        if (s != null && s.getConditions() != null) {
            for (ClusterOperatorStatusCondition c : s.getConditions())
                latest = Math.max(latest, seconds(c.getLastTransitionTime()));
        }
        return latest;
    }

    /**
     * RFC 3339 as seconds since the epoch; 0 when absent or unreadable (upstream sets 0 for a zero
     * time).
     */
    static double seconds(String time) {
        if (empty(time)) return 0;
        try {
            return Instant.parse(time).getEpochSecond();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }
}
