package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.status.estimate.RunLevelTimes;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller keeps each update's run-level times in the ClusterVersion's annotation, for
 * Upshift's estimate.
 */
@Tag("e2e")
class RunLevelTimesControllerTest {
    private static final String LATE =
            "apiVersion: v1\n"
                    + "kind: ConfigMap\n"
                    + "metadata:\n"
                    + "  name: late\n"
                    + "  namespace: test-ns\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n"
                    + "data:\n"
                    + "  a: b\n";

    @TempDir Path dir;

    private static RunLevelTimes times(ControllerHarness h) {
        return RunLevelTimes.of(h.clusterVersion());
    }

    @Test
    void anUpdateIsTimedRunLevelByRunLevelAndTheNextUpdateKeepsItsDurations() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a =
                    h.payloads.release(
                            "4.1.0", "4.1.0", true, Map.of("0000_30_late_00_configmap.yaml", LATE));
            String b =
                    h.payloads.release(
                            "4.1.1", "4.1.1", true, Map.of("0000_30_late_00_configmap.yaml", LATE));
            String c =
                    h.payloads.release(
                            "4.1.2", "4.1.2", true, Map.of("0000_30_late_00_configmap.yaml", LATE));
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(times(h)).as("an install is not timed").isNull();

            h.holdOperator(true);
            Instant requested = Instant.now();
            h.requestUpdate("4.1.1", b, false);
            RunLevelTimes waiting =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> times(h),
                                    t -> t != null && t.levels().get(0).startedAt() != null);
            assertThat(waiting.image()).isEqualTo(b);
            assertThat(waiting.levels())
                    .extracting(RunLevelTimes.Level::runLevel)
                    .containsExactly("10", "30");
            assertThat(waiting.levels().get(0).operators()).containsExactly("test-operator");
            assertThat(waiting.levels().get(0).doneAt()).as("waits for the operator").isNull();
            assertThat(waiting.levels().get(1).startedAt()).isNull();
            assertThat(Instant.parse(waiting.levels().get(0).startedAt()))
                    .isAfterOrEqualTo(requested.minusSeconds(1));

            h.holdOperator(false);
            await().atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            RunLevelTimes done =
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> times(h), t -> t != null && t.complete());
            RunLevelTimes.Level first = done.levels().get(0), second = done.levels().get(1);
            assertThat(Instant.parse(first.doneAt()))
                    .isAfterOrEqualTo(Instant.parse(first.startedAt()));
            assertThat(Instant.parse(second.startedAt()))
                    .isAfterOrEqualTo(Instant.parse(first.doneAt()));
            long writes = h.controller.writes();
            h.passesWritten(2); // Reconciling passes: the times of the update stay as they are,
            // unwritten
            assertThat(times(h)).isEqualTo(done);
            assertThat(h.controller.writes()).isEqualTo(writes);

            h.requestUpdate("4.1.2", c, false);
            await().atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.2"));
            RunLevelTimes next =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> times(h),
                                    t -> t != null && t.complete() && t.image().equals(c));
            assertThat(next.previous().version()).isEqualTo("4.1.1");
            assertThat(next.previous().seconds()).containsOnlyKeys("10", "30");
        }
    }
}
