package io.upshift.clusterversion.model;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Failing condition from the current task errors, as the reference decides it: an error with
 * effect Fail makes Failing=True at once; Degraded operators (FailAfterInterval) after {@code
 * degradedAfter}; anything still waiting after {@code slowAfter} (three times that for
 * machine-config) makes Failing=Unknown, SlowClusterOperator.
 */
public record Failing(String status, String reason, String message) {

    public static final Failing NONE = new Failing("False", "", "");

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
        List<String> slow = new ArrayList<>();
        for (TaskError e : errors) {
            Duration age = Duration.between(e.since(), now);
            switch (e.effect()) {
                case FAIL -> failing.add(e);
                case FAIL_AFTER_INTERVAL -> {
                    if (age.compareTo(t.degradedAfter()) > 0) failing.add(e);
                    else if (age.compareTo(
                                    t.slowAfterByName().getOrDefault(e.name(), t.slowAfter()))
                            > 0) slow.add(e.name());
                }
                case NONE -> {
                    if (age.compareTo(t.slowAfterByName().getOrDefault(e.name(), t.slowAfter()))
                            > 0) slow.add(e.name());
                }
                case REPORT -> {}
            }
        }
        if (failing.size() == 1)
            return new Failing("True", failing.get(0).reason(), failing.get(0).message());
        if (failing.size() > 1) {
            StringBuilder m = new StringBuilder("Multiple errors are preventing progress:");
            failing.forEach(e -> m.append("\n* ").append(e.message()));
            boolean same =
                    failing.stream().allMatch(e -> e.reason().equals(failing.get(0).reason()));
            return new Failing(
                    "True", same ? failing.get(0).reason() : "MultipleErrors", m.toString());
        }
        if (!slow.isEmpty()) {
            return new Failing(
                    "Unknown",
                    "SlowClusterOperator",
                    "waiting on "
                            + String.join(", ", slow)
                            + " over "
                            + t.slowAfter().toMinutes()
                            + " minutes which is longer than expected");
        }
        return NONE;
    }
}
