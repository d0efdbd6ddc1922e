package io.upshift.clusterversion.model;

import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Failing condition from the current task errors, and what Progressing says of them, as the
 * reference decides it (pkg/cvo/status.go, sync_worker.go {@code summarizeTaskGraphErrors}): an
 * error with effect Fail makes Failing=True at once, a Degraded operator (FailAfterInterval) after
 * {@code degradedAfter} and until then Progressing waits "up to 40 minutes" on it; an operator
 * still updating after {@code slowAfter} (three times that for machine-config) makes
 * Failing=Unknown, SlowClusterOperator. ClusterOperator errors of one reason are said together
 * ("Cluster operators a, b are not available"); different errors as "Multiple errors are preventing
 * progress".
 *
 * @param summary upstream's few words for the failure ({@link FailureSummary}): what Progressing
 *     says after "Error while reconciling V: "
 * @param progress what Progressing says after "Unable to apply V: " when Failing=True, else the
 *     tail of "Working towards V" (the slow or degraded operators waited on); empty when none
 */
public record Failing(
        String status, String reason, String message, String summary, String progress) {

    public static final Failing NONE = new Failing("False", "", "", "", "");

    /** Reasons of ClusterOperator errors, and how several of one reason are said together. */
    private static final Map<String, String[]> PLURAL =
            Map.of(
                    "ClusterOperatorNoVersions",
                    new String[] {
                        "ClusterOperatorsNoVersions",
                        "Cluster operators %s do not declare expected versions"
                    },
                    "ClusterOperatorNotAvailable",
                    new String[] {
                        "ClusterOperatorsNotAvailable", "Cluster operators %s are not available"
                    },
                    "ClusterOperatorDegraded",
                    new String[] {"ClusterOperatorsDegraded", "Cluster operators %s are degraded"},
                    "ClusterOperatorUpdating",
                    new String[] {
                        "ClusterOperatorsUpdating", "Cluster operators %s are updating versions"
                    });

    public record Thresholds(
            Duration slowAfter, Duration degradedAfter, Map<String, Duration> slowAfterByName) {
        public static Thresholds standard() {
            return new Thresholds(
                    Duration.ofMinutes(30),
                    Duration.ofMinutes(40),
                    Map.of("machine-config", Duration.ofMinutes(90)));
        }
    }

    public static Failing of(List<TaskError> errors, Instant now, Thresholds t) {
        List<TaskError> failing = new ArrayList<>();
        List<String> slow = new ArrayList<>(), degraded = new ArrayList<>();
        Map<String, Duration> slowOwn = new TreeMap<>();
        for (TaskError e : errors) {
            Duration age = Duration.between(e.since(), now);
            switch (e.effect()) {
                case FAIL -> failing.add(e);
                case FAIL_AFTER_INTERVAL -> {
                    if (age.compareTo(t.degradedAfter()) > 0) failing.add(e);
                    else degraded.add(e.name());
                }
                case NONE -> {
                    Duration own = t.slowAfterByName().get(e.name());
                    if (age.compareTo(own != null ? own : t.slowAfter()) <= 0) continue;
                    if (own != null) slowOwn.put(e.name(), own);
                    else slow.add(e.name());
                }
                case REPORT -> {}
            }
        }
        if (!failing.isEmpty()) return failure(condense(failing), t);
        if (!slow.isEmpty() || !slowOwn.isEmpty()) {
            List<String> parts = new ArrayList<>();
            if (!slow.isEmpty())
                parts.add(String.join(", ", slow) + " over " + span(t.slowAfter()));
            slowOwn.forEach((name, d) -> parts.add(name + " over " + span(d)));
            String message =
                    "waiting on " + String.join(" and ", parts) + " which is longer than expected";
            return new Failing("Unknown", "SlowClusterOperator", message, "", message);
        }
        if (!degraded.isEmpty()) {
            return new Failing(
                    "False",
                    "",
                    "",
                    "",
                    "waiting up to "
                            + span(t.degradedAfter())
                            + " on "
                            + String.join(", ", degraded));
        }
        return NONE;
    }

    /**
     * A threshold as upstream words its own ("40 minutes"); one that is not whole minutes (a
     * test's, the demo's) in Go's duration format.
     */
    static String span(Duration d) {
        return d.toSeconds() % 60 == 0 && d.toNanosPart() == 0
                ? d.toMinutes() + " minutes"
                : GoDuration.format(d.toNanos());
    }

    /** One failure: its reason and message, in few words, and what Progressing says of it. */
    private static Failing failure(List<TaskError> errors, Thresholds t) {
        if (errors.size() > 1) {
            TreeSet<String> messages = new TreeSet<>();
            errors.forEach(e -> messages.add(e.message()));
            String summary = FailureSummary.forReason("MultipleErrors", "");
            return new Failing(
                    "True",
                    "MultipleErrors",
                    "Multiple errors are preventing progress:\n* " + String.join("\n* ", messages),
                    summary,
                    summary);
        }
        TaskError e = errors.get(0);
        String summary =
                FailureSummary.forReason(
                        e.reason(), e.reason().startsWith("ClusterOperator") ? e.name() : "");
        return new Failing(
                "True",
                e.reason(),
                e.message(),
                summary,
                e.effect() == OperatorLevel.Effect.FAIL_AFTER_INTERVAL
                        ? "wait has exceeded "
                                + span(t.degradedAfter())
                                + " for these operators: "
                                + e.name()
                        : summary);
    }

    /**
     * ClusterOperator errors of one reason become one, naming every operator (sorted); the others
     * pass as they are, before them.
     */
    private static List<TaskError> condense(List<TaskError> errors) {
        List<TaskError> out = new ArrayList<>();
        Map<String, List<TaskError>> byReason = new LinkedHashMap<>();
        for (TaskError e : errors) {
            if (PLURAL.containsKey(e.reason()))
                byReason.computeIfAbsent(e.reason(), r -> new ArrayList<>()).add(e);
            else out.add(e);
        }
        for (String reason : new TreeSet<>(byReason.keySet())) {
            List<TaskError> same = byReason.get(reason);
            if (same.size() == 1) {
                out.add(same.get(0));
                continue;
            }
            String names = String.join(", ", same.stream().map(TaskError::name).sorted().toList());
            boolean fail = same.stream().anyMatch(e -> e.effect() == OperatorLevel.Effect.FAIL);
            out.add(
                    new TaskError(
                            names,
                            PLURAL.get(reason)[0],
                            String.format(PLURAL.get(reason)[1], names),
                            fail ? OperatorLevel.Effect.FAIL : same.get(0).effect(),
                            same.get(0).since()));
        }
        return out;
    }
}
