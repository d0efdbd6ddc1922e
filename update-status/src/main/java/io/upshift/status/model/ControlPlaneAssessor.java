package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.api.update.ClusterOperatorInsight;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.ControlPlaneVersions;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ScopeType;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.GoNumbers;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.RolloutHold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Assesses the control plane from the ClusterVersion and the platform ClusterOperators. */
final class ControlPlaneAssessor {
    static final String MACHINE_CONFIG = "machine-config";
    private static final long UNAVAILABLE_WARNING = 5 * GoDuration.MINUTE;
    private static final long UNAVAILABLE_ERROR = 20 * GoDuration.MINUTE;
    private static final long DEGRADED_WARNING = 5 * GoDuration.MINUTE;
    private static final long DEGRADED_ERROR = 40 * GoDuration.MINUTE;

    /** The control plane's insights: one for the ClusterVersion, one per platform operator. */
    record Result(ClusterVersionInsight clusterVersion, List<ClusterOperatorInsight> operators) {}

    private final Instant at;

    ControlPlaneAssessor(Instant at) {
        this.at = at;
    }

    Result assess(
            ClusterVersion cv,
            List<ClusterOperator> operators,
            String mcoImage,
            List<HealthInsights.Keyed> health) {
        String cvName = cv.getMetadata().getName();
        String target =
                cv.getStatus().getDesired() == null
                        ? ""
                        : nullToEmpty(cv.getStatus().getDesired().getVersion());
        List<UpdateHistory> history = history(cv);
        failingHealth(cv, cvName, health);

        int total = 0, updated = 0;
        Instant lastObservedProgress = Times.ZERO;
        Instant mcoStartedUpdating = null;
        List<ClusterOperatorInsight> insights = new ArrayList<>();
        for (ClusterOperator operator : operators) {
            if (!isPlatformOperator(operator)) {
                continue;
            }
            String name = operator.getMetadata().getName();
            boolean isUpdated = isUpdated(operator, target, mcoImage);
            total++;
            updated += isUpdated ? 1 : 0;
            ClusterOperatorStatusCondition available = condition(operator, "Available");
            ClusterOperatorStatusCondition degraded = condition(operator, "Degraded");
            ClusterOperatorStatusCondition progressing = condition(operator, "Progressing");
            Condition updating;
            String progressingReason = null;
            if (isUpdated) {
                updating =
                        InsightConditions.of(ClusterOperatorInsight.UPDATING, false, "Updated", "");
            } else if (progressing != null && "True".equals(progressing.getStatus())) {
                updating =
                        InsightConditions.of(
                                ClusterOperatorInsight.UPDATING,
                                "True",
                                "Progressing",
                                progressing.getMessage(),
                                timeOr(progressing.getLastTransitionTime()));
                progressingReason = nullToEmpty(progressing.getReason());
                if (MACHINE_CONFIG.equals(name)) {
                    mcoStartedUpdating = Times.parse(progressing.getLastTransitionTime());
                }
            } else if (progressing != null && "False".equals(progressing.getStatus())) {
                updating =
                        InsightConditions.of(
                                ClusterOperatorInsight.UPDATING,
                                false,
                                "Pending",
                                progressing.getMessage());
            } else {
                updating =
                        InsightConditions.of(
                                ClusterOperatorInsight.UPDATING,
                                "Unknown",
                                "CannotDetermine",
                                "",
                                null);
            }
            if (progressing != null) {
                Instant ltt = Times.parse(progressing.getLastTransitionTime());
                if (ltt != null && ltt.isAfter(lastObservedProgress)) {
                    lastObservedProgress = ltt;
                }
            }
            Condition healthy;
            if (available == null || !"True".equals(available.getStatus())) {
                healthy =
                        InsightConditions.of(
                                ClusterOperatorInsight.HEALTHY,
                                false,
                                "Unavailable",
                                available == null ? "" : available.getMessage());
            } else if (degraded != null && "True".equals(degraded.getStatus())) {
                healthy =
                        InsightConditions.of(
                                ClusterOperatorInsight.HEALTHY,
                                false,
                                "Degraded",
                                degraded.getMessage());
            } else {
                healthy =
                        InsightConditions.of(
                                ClusterOperatorInsight.HEALTHY, true, "AsExpected", "");
            }
            insights.add(
                    new ClusterOperatorInsight(
                            List.of(updating, healthy),
                            name,
                            HealthInsights.clusterOperator(name),
                            progressingReason));
            operatorHealth(name, available, degraded, health);
        }
        boolean completed = updated == total;
        // When only machine-config is left, its nodes rebooting make other operators flap
        // Progressing; ignore them.
        if (mcoStartedUpdating != null && total - updated == 1) {
            lastObservedProgress = mcoStartedUpdating;
        }

        Instant started = null;
        Instant completedAt = null;
        long updatingFor = 0;
        long toLastObservedProgress = 0;
        if (!history.isEmpty()) {
            UpdateHistory current = history.get(0);
            started = orZero(Times.parse(current.getStartedTime()));
            if (!lastObservedProgress.isAfter(started)) {
                lastObservedProgress = at;
            }
            toLastObservedProgress = Times.between(started, lastObservedProgress);
            if ("Completed".equals(current.getState())) {
                completedAt = orZero(Times.parse(current.getCompletionTime()));
            }
            updatingFor = Times.between(started, completedAt != null ? completedAt : at);
        }
        double completion = (double) updated / total;
        String assessment = "Completed";
        Instant estimatedCompletedAt = null;
        if (!completed) {
            long estimate =
                    CompletionEstimate.estimate(
                            CompletionEstimate.baseline(history),
                            toLastObservedProgress,
                            updatingFor,
                            completion);
            assessment = CompletionEstimate.assessment(estimate);
            estimatedCompletedAt = at.plusNanos(estimate);
        }
        if (!history.isEmpty() && !completed && isPartial(history, 1)) {
            previousPartialHealth(cvName, history, health);
        }
        Condition cvUpdating = updatingCondition(cv);
        Instant startedAt = started != null ? started : progressingSince(cv);
        ClusterVersionInsight cvInsight =
                new ClusterVersionInsight(
                        List.of(cvUpdating),
                        HealthInsights.clusterVersion(cvName),
                        assessment,
                        versions(history),
                        total == 0 ? null : Integer.valueOf(GoNumbers.percent(completion * 100.0)),
                        Times.format(startedAt),
                        Times.format(completedAt),
                        Times.format(estimatedCompletedAt),
                        null);
        return new Result(cvInsight, insights);
    }

    static List<UpdateHistory> history(ClusterVersion cv) {
        return cv.getStatus().getHistory() == null ? List.of() : cv.getStatus().getHistory();
    }

    static boolean isMultiArchMigration(List<UpdateHistory> history) {
        return history.size() > 1
                && history.get(0).getVersion() != null
                && history.get(0).getVersion().equals(history.get(1).getVersion())
                && !nullToEmpty(history.get(0).getImage())
                        .equals(nullToEmpty(history.get(1).getImage()));
    }

    private static boolean isPartial(List<UpdateHistory> history, int index) {
        return history.size() > index && "Partial".equals(history.get(index).getState());
    }

    private static ControlPlaneVersions versions(List<UpdateHistory> history) {
        if (history.isEmpty()) {
            return null;
        }
        List<ControlPlaneVersions.Metadata> targetMeta = new ArrayList<>();
        if (history.size() == 1) {
            targetMeta.add(
                    new ControlPlaneVersions.Metadata(ControlPlaneVersions.INSTALLATION, ""));
        }
        if (isMultiArchMigration(history)) {
            targetMeta.add(
                    new ControlPlaneVersions.Metadata(ControlPlaneVersions.ARCHITECTURE, "Multi"));
        }
        ControlPlaneVersions.Version target =
                new ControlPlaneVersions.Version(history.get(0).getVersion(), targetMeta);
        ControlPlaneVersions.Version previous = null;
        if (history.size() > 1) {
            previous =
                    new ControlPlaneVersions.Version(
                            history.get(1).getVersion(),
                            isPartial(history, 1)
                                    ? List.of(
                                            new ControlPlaneVersions.Metadata(
                                                    ControlPlaneVersions.PARTIAL, ""))
                                    : List.of());
        }
        return new ControlPlaneVersions(previous, target);
    }

    private static Condition updatingCondition(ClusterVersion cv) {
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        String message = p == null ? "" : p.getMessage();
        if (p != null && "True".equals(p.getStatus())) {
            return InsightConditions.of(
                    ClusterVersionInsight.UPDATING,
                    "True",
                    "ClusterVersionProgressing",
                    message,
                    null);
        }
        if (p != null && "False".equals(p.getStatus())) {
            return InsightConditions.of(
                    ClusterVersionInsight.UPDATING,
                    "False",
                    // Upshift's: the update's maintenance window holds a new request
                    RolloutHold.WINDOW.equals(p.getReason())
                                    || MaintenanceWindow.INVALID.equals(p.getReason())
                            ? p.getReason()
                            : "ClusterVersionNotProgressing",
                    message,
                    null);
        }
        return InsightConditions.of(
                ClusterVersionInsight.UPDATING,
                "Unknown",
                "CannotDetermineUpdating",
                message,
                null);
    }

    private static Instant progressingSince(ClusterVersion cv) {
        ClusterOperatorStatusCondition p =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        return p == null ? null : Times.parse(p.getLastTransitionTime());
    }

    private void failingHealth(
            ClusterVersion cv, String cvName, List<HealthInsights.Keyed> health) {
        ClusterOperatorStatusCondition failing =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Failing");
        String reference = HealthInsights.RUNBOOKS + "ClusterOperatorDegraded.md";
        if (failing == null) {
            health.add(
                    HealthInsights.of(
                            "cv-no-failing-" + cvName,
                            at,
                            ScopeType.ControlPlane,
                            HealthInsights.clusterVersion(cvName),
                            ImpactLevel.Warning,
                            HealthInsights.UPDATE_STALLED,
                            "Cluster Version " + cvName + " has no Failing condition",
                            "Current status of Cluster Version reconciliation is unclear.  See 'oc"
                                    + " -n openshift-cluster-version logs -l"
                                    + " k8s-app=cluster-version-operator --tail -1' to debug.",
                            reference));
        } else if (!"False".equals(failing.getStatus())) {
            String verb = "Unknown".equals(failing.getStatus()) ? "may be" : "is";
            health.add(
                    HealthInsights.of(
                            "cv-failing-" + cvName,
                            orZero(Times.parse(failing.getLastTransitionTime())),
                            ScopeType.ControlPlane,
                            HealthInsights.clusterVersion(cvName),
                            ImpactLevel.Warning,
                            HealthInsights.UPDATE_STALLED,
                            "Cluster Version "
                                    + cvName
                                    + " "
                                    + verb
                                    + " failing to proceed with the update ("
                                    + nullToEmpty(failing.getReason())
                                    + ")",
                            nullToEmpty(failing.getMessage()),
                            reference));
        }
    }

    private void operatorHealth(
            String name,
            ClusterOperatorStatusCondition available,
            ClusterOperatorStatusCondition degraded,
            List<HealthInsights.Keyed> health) {
        if (available != null && "False".equals(available.getStatus())) {
            lasting(
                    name,
                    available,
                    "unavailable",
                    UNAVAILABLE_WARNING,
                    UNAVAILABLE_ERROR,
                    "ClusterOperatorDown.md",
                    health);
        }
        if (degraded != null && "True".equals(degraded.getStatus())) {
            lasting(
                    name,
                    degraded,
                    "degraded",
                    DEGRADED_WARNING,
                    DEGRADED_ERROR,
                    "ClusterOperatorDegraded.md",
                    health);
        }
    }

    /**
     * A bad operator condition is worth a warning once it lasts, and an error once it lasts much
     * longer.
     */
    private void lasting(
            String name,
            ClusterOperatorStatusCondition c,
            String state,
            long warning,
            long error,
            String runbook,
            List<HealthInsights.Keyed> health) {
        Instant since = orZero(Times.parse(c.getLastTransitionTime()));
        long lasting = Times.between(since, at);
        if (lasting > warning) {
            health.add(
                    HealthInsights.of(
                            "co-" + state + "-" + name,
                            since,
                            ScopeType.ControlPlane,
                            HealthInsights.clusterOperator(name),
                            lasting > error ? ImpactLevel.Error : ImpactLevel.Warning,
                            HealthInsights.API_AVAILABILITY,
                            "Cluster Operator "
                                    + name
                                    + " is "
                                    + state
                                    + " ("
                                    + nullToEmpty(c.getReason())
                                    + ")",
                            orNoMessage(c.getMessage()),
                            HealthInsights.RUNBOOKS + runbook));
        }
    }

    private static void previousPartialHealth(
            String cvName, List<UpdateHistory> history, List<HealthInsights.Keyed> health) {
        String previous = history.get(1).getVersion();
        String target = history.get(0).getVersion();
        String lastComplete = "unknown";
        for (UpdateHistory item : history.subList(Math.min(2, history.size()), history.size())) {
            if ("Completed".equals(item.getState())) {
                lastComplete = item.getVersion();
                break;
            }
        }
        health.add(
                HealthInsights.of(
                        "cv-previous-partial-" + cvName,
                        orZero(Times.parse(history.get(0).getStartedTime())),
                        ScopeType.ControlPlane,
                        HealthInsights.clusterVersion(cvName),
                        ImpactLevel.Warning,
                        "None",
                        "Previous update to "
                                + previous
                                + " never completed, last complete update was "
                                + lastComplete,
                        "Current update to "
                                + target
                                + " was initiated while the previous update to version "
                                + previous
                                + " was still in progress",
                        HealthInsights.HISTORY_DOCS));
    }

    /**
     * Platform operators are the ones a release payload manages; only they count towards the
     * update.
     */
    private static boolean isPlatformOperator(ClusterOperator operator) {
        if (operator.getMetadata().getAnnotations() == null) {
            return false;
        }
        return operator.getMetadata().getAnnotations().keySet().stream()
                .anyMatch(
                        k ->
                                k.startsWith("exclude.release.openshift.io/")
                                        || k.startsWith("include.release.openshift.io/"));
    }

    /**
     * Updated means reporting the target as its operator version. machine-config also has to run
     * the image the cluster's Deployment runs: during a multi-arch migration the version stays
     * while the image changes.
     */
    private static boolean isUpdated(ClusterOperator operator, String target, String mcoImage) {
        List<OperandVersion> versions =
                operator.getStatus() == null || operator.getStatus().getVersions() == null
                        ? List.of()
                        : operator.getStatus().getVersions();
        if (MACHINE_CONFIG.equals(operator.getMetadata().getName())) {
            for (OperandVersion v : versions) {
                if ("operator-image".equals(v.getName())
                        && !mcoImage.equals(nullToEmpty(v.getVersion()))) {
                    return false;
                }
            }
        }
        return versions.stream()
                .anyMatch(v -> "operator".equals(v.getName()) && target.equals(v.getVersion()));
    }

    private static ClusterOperatorStatusCondition condition(ClusterOperator operator, String type) {
        if (operator.getStatus() == null || operator.getStatus().getConditions() == null) {
            return null;
        }
        ClusterOperatorStatusCondition found = null;
        for (ClusterOperatorStatusCondition c : operator.getStatus().getConditions()) {
            if (type.equals(c.getType())) {
                found = c;
            }
        }
        return found;
    }

    private String timeOr(String time) {
        return time == null || time.isEmpty() ? Times.format(at) : time;
    }

    private static Instant orZero(Instant t) {
        return t == null ? Times.ZERO : t;
    }

    private static String orNoMessage(String message) {
        return message == null || message.isEmpty() ? "<no message>" : message;
    }

    static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
