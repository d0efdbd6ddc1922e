package io.upshift.status.render;

import io.fabric8.kubernetes.api.model.Condition;
import io.upshift.api.update.ClusterOperatorInsight;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.ControlPlaneVersions;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.GoNumbers;
import io.upshift.base.gofmt.Tabwriter;
import io.upshift.status.model.CompletionEstimate;
import io.upshift.status.model.Times;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * "= Control Plane =": assessment, versions, operator progress, duration and estimate, operator
 * health.
 */
final class ControlPlaneSection {
    private static final DateTimeFormatter RFC3339 =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX").withZone(ZoneOffset.UTC);

    private ControlPlaneSection() {}

    static void write(
            StringBuilder out,
            StatusView view,
            Instant now,
            boolean detailed,
            EstimateSource source) {
        ClusterVersionInsight cv = view.clusterVersion();
        List<ClusterOperatorInsight> operators = view.operators();
        int total = operators.size();
        int updated = 0, waiting = 0, unavailable = 0, degraded = 0;
        List<ClusterOperatorInsight> updating = new ArrayList<>();
        for (ClusterOperatorInsight o : operators) {
            String reason = Conditions.META.reason(o.conditions(), ClusterOperatorInsight.UPDATING);
            if ("Updated".equals(reason)) {
                updated++;
            } else if (Conditions.META.isTrue(o.conditions(), ClusterOperatorInsight.UPDATING)) {
                updating.add(o);
            } else if ("Pending".equals(reason)) {
                waiting++;
            }
            String healthReason =
                    Conditions.META.reason(o.conditions(), ClusterOperatorInsight.HEALTHY);
            unavailable += "Unavailable".equals(healthReason) ? 1 : 0;
            degraded += "Degraded".equals(healthReason) ? 1 : 0;
        }

        ControlPlaneVersions versions = cv.versions();
        Instant started = Times.parse(cv.startedAt());
        Instant completedAt = Times.parse(cv.completedAt());
        Instant completionAt =
                versions == null ? Times.ZERO : completedAt != null ? completedAt : now;
        long updatingFor =
                versions == null || started == null ? 0 : Times.between(started, completionAt);
        long duration =
                updatingFor > 10 * GoDuration.MINUTE
                        ? GoDuration.round(updatingFor, GoDuration.MINUTE)
                        : GoDuration.round(updatingFor, GoDuration.SECOND);
        String target = targetVersion(versions);

        if (updated == total) {
            out.append("= Control Plane =\nUpdate to ")
                    .append(versions == null ? "unknown" : versions.target().version())
                    .append(" successfully completed at ")
                    .append(RFC3339.format(completionAt))
                    .append(" (duration: ")
                    .append(GoDuration.shortFormat(duration))
                    .append(")\n");
            return;
        }
        boolean upshift = source == EstimateSource.upshift;
        UpshiftEstimate own = cv.upshiftEstimate();
        Instant estimatedAt =
                Times.parse(
                        upshift
                                ? own == null ? null : own.completedAt()
                                : cv.estimatedCompletedAt());
        long estimate = estimatedAt == null ? 0 : Times.between(now, estimatedAt);
        if (upshift && estimate < 0) {
            estimate = 0; // due now: Upshift's estimate is not oc's, whose overrun means slow
        }
        long estimateDuration = GoDuration.truncate(updatingFor + estimate, GoDuration.MINUTE);
        String assessment = CompletionEstimate.assessment(estimate);
        if (assessment.equals("ProgressingSlow")) {
            assessment = "Progressing - Slow";
        }
        out.append("= Control Plane =\n");
        out.append("Assessment:      ").append(assessment).append('\n');
        out.append("Target Version:  ").append(target).append('\n');
        if (!updating.isEmpty()) {
            out.append("Updating:        ")
                    .append(
                            String.join(
                                    ", ",
                                    updating.stream().map(ClusterOperatorInsight::name).toList()))
                    .append('\n');
        }
        out.append("Completion:      ")
                .append(GoNumbers.percent((double) updated / total * 100.0))
                .append("% (")
                .append(updated)
                .append(" operators updated, ")
                .append(updating.size())
                .append(" updating, ")
                .append(waiting)
                .append(" waiting)\n");
        out.append("Duration:        ").append(GoDuration.shortFormat(duration));
        if (upshift) {
            out.append(" (Est. Time Remaining: ")
                    .append(estimatedAt == null ? "unknown" : remaining(estimate))
                    .append(")\n");
            out.append("Estimate Basis:  ").append(own == null ? "not estimated" : own.basis());
        } else if (estimate != 0) {
            out.append(" (Est. Time Remaining: ")
                    .append(vague(estimate, estimateDuration, isMultiArch(versions)))
                    .append(')');
        }
        out.append('\n');
        out.append("Operator Health: ").append(total - unavailable - degraded).append(" Healthy");
        if (unavailable > 0) {
            out.append(", ").append(unavailable).append(" Unavailable");
        }
        if (degraded > 0) {
            out.append(", ").append(degraded).append(" Available but degraded");
        }
        out.append('\n');
        if (detailed && !updating.isEmpty()) {
            writeUpdatingOperators(out, updating, now);
        }
    }

    private static void writeUpdatingOperators(
            StringBuilder out, List<ClusterOperatorInsight> updating, Instant now) {
        out.append("\nUpdating Cluster Operators");
        Tabwriter table = new Tabwriter().write("\nNAME\tSINCE\tREASON\tMESSAGE\n");
        for (ClusterOperatorInsight o : updating) {
            Condition u = Conditions.META.find(o.conditions(), ClusterOperatorInsight.UPDATING);
            Instant since = Times.parse(u.getLastTransitionTime());
            String reason =
                    o.progressingReason() == null || o.progressingReason().isEmpty()
                            ? "-"
                            : o.progressingReason();
            table.write(o.name() + "\t")
                    .write(
                            GoDuration.shortFormat(
                                            Times.between(since == null ? Times.ZERO : since, now))
                                    + "\t")
                    .write(ellipsis(reason, 20) + "\t");
            String[] lines = (u.getMessage() == null ? "" : u.getMessage()).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                table.write((i == 0 ? "" : "\t\t\t") + lines[i] + "\n");
            }
        }
        out.append(table.flush());
    }

    private static String targetVersion(ControlPlaneVersions v) {
        if (v == null) {
            return "unknown (from unknown)";
        }
        String target = v.target().version();
        String previous = v.previous() == null ? "unknown" : v.previous().version();
        if (v.target().has(ControlPlaneVersions.INSTALLATION)) {
            return target + " (a new install)";
        }
        if (v.previous() != null && v.previous().has(ControlPlaneVersions.PARTIAL)) {
            return target + " (from incomplete " + previous + ")";
        }
        if (isMultiArch(v)) {
            return target + " to Multi-Architecture";
        }
        return target + " (from " + previous + ")";
    }

    private static boolean isMultiArch(ControlPlaneVersions v) {
        return v != null && v.target().has(ControlPlaneVersions.ARCHITECTURE);
    }

    /** Upshift's time remaining: to the second under ten minutes, else to the minute. */
    static String remaining(long estimate) {
        return GoDuration.shortFormat(
                estimate > 10 * GoDuration.MINUTE
                        ? GoDuration.round(estimate, GoDuration.MINUTE)
                        : GoDuration.round(estimate, GoDuration.SECOND));
    }

    /** An estimate worded as loosely as it deserves. */
    private static String vague(long estimate, long estimateDuration, boolean multiArch) {
        if (multiArch) {
            return "N/A for Multi-Architecture Migration";
        }
        if (estimate < -10 * GoDuration.MINUTE) {
            return "N/A; estimate duration was " + GoDuration.shortFormat(estimateDuration);
        }
        if (estimate < 10 * GoDuration.MINUTE) {
            return "<" + GoDuration.shortFormat(10 * GoDuration.MINUTE);
        }
        return GoDuration.shortFormat(estimate);
    }

    static String ellipsis(String s, int max) {
        int runes = s.codePointCount(0, s.length());
        if (runes <= max) {
            return s;
        }
        int keep = Math.max(max, 3) - 3;
        return s.substring(0, s.offsetByCodePoints(0, keep)) + "...";
    }
}
