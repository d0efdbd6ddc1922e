package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.status.estimate.UpdateEnd;
import io.upshift.status.model.ClusterState;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.testkit.AcceleratedClock;
import io.upshift.testkit.Conflicts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maintenance window on the ClusterVersion holds an update asked for until it opens, on the
 * controller's clock (here a Friday morning that the test moves to Saturday's window), while status
 * says so and Upshift's estimate of the update's end moves by the wait.
 */
@Tag("e2e")
class UpdateWindowControllerTest {
    private static final Instant FRIDAY = Instant.parse("2026-11-20T10:00:00Z");
    private static final Instant OPENS = Instant.parse("2026-11-21T02:00:00Z");

    @TempDir Path dir;

    @Test
    void theUpdateStartsWhenTheWindowOpensAndTheEstimateWaitsForIt() throws Exception {
        try (ControllerHarness h = ControllerHarness.onEmbeddedServer(dir)) {
            AcceleratedClock clock = new AcceleratedClock(FRIDAY, 1);
            h.clock = clock;
            String a = h.payloads.release("4.1.0", "4.1.0", true, Map.of());
            String b = h.payloads.release("4.1.1", "4.1.1", true, Map.of());
            String c = h.payloads.release("4.1.2", "4.1.2", true, Map.of());
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            // one update timed, for the estimate of the next
            h.requestUpdate("4.1.1", b, false);
            await("4.1.1").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            RunLevelTimes timed =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> RunLevelTimes.of(h.clusterVersion()),
                                    t -> t != null && t.complete() && t.image().equals(b));

            annotate(h, MaintenanceWindow.ANNOTATION, "Sat 02:00-06:00");
            h.requestUpdate("4.1.2", c, false);
            await("held")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.condition("Progressing") != null
                                            && "MaintenanceWindow"
                                                    .equals(
                                                            h.condition("Progressing")
                                                                    .getReason()));
            assertThat(h.condition("Progressing").getStatus()).isEqualTo("False");
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo(
                            "Cluster version is 4.1.1; the update to 4.1.2 waits for the"
                                    + " maintenance window \"Sat 02:00-06:00\""
                                    + " (upshift.io/maintenance-window on ClusterVersion version),"
                                    + " which opens at 2026-11-21T02:00:00Z");
            await("an event says so")
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () ->
                                    h
                                            .client
                                            .v1()
                                            .events()
                                            .inNamespace("default")
                                            .list()
                                            .getItems()
                                            .stream()
                                            .anyMatch(
                                                    e ->
                                                            "MaintenanceWindow"
                                                                            .equals(e.getReason())
                                                                    && e.getMessage()
                                                                            .startsWith(
                                                                                    "the update to"
                                                                                        + " 4.1.2"
                                                                                        + " waits")));
            h.passesWritten(2); // the release it runs is reconciled meanwhile, and nothing starts
            ClusterVersion held = h.clusterVersion();
            assertThat(held.getStatus().getDesired().getVersion()).isEqualTo("4.1.1");
            assertThat(held.getStatus().getHistory().get(0).getVersion()).isEqualTo("4.1.1");

            // Upshift's estimate: the update as the last one went, from when the window opens
            Instant end = UpdateEnd.of(assess(h, clock.instant())).orElseThrow();
            double seconds =
                    timed.lastTimed().seconds().values().stream().mapToDouble(d -> d).sum();
            assertThat(Duration.between(OPENS, end).toMillis())
                    .isCloseTo((long) (seconds * 1000), org.assertj.core.data.Offset.offset(1000L));

            // Saturday, 02:00:01 by the controller's clock; a change to the ClusterVersion (any
            // event) has it look again, as its own timer would at the opening on a real clock
            clock.jump(Duration.between(clock.instant(), OPENS.plusSeconds(1)));
            annotate(h, "example.com/poke", "1");
            await("4.1.2 once the window opened")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.2"));
            Instant started =
                    Instant.parse(
                            h.clusterVersion().getStatus().getHistory().get(0).getStartedTime());
            assertThat(started).isAfterOrEqualTo(OPENS);
        }
    }

    @Test
    void aWindowThatDoesNotParseHoldsTheUpdateNamingTheAnnotation() throws Exception {
        try (ControllerHarness h = ControllerHarness.onEmbeddedServer(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true, Map.of());
            String b = h.payloads.release("4.1.1", "4.1.1", true, Map.of());
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            annotate(h, MaintenanceWindow.ANNOTATION, "Saturday night");
            h.requestUpdate("4.1.1", b, false);
            await("held")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.condition("Progressing") != null
                                            && "InvalidMaintenanceWindow"
                                                    .equals(
                                                            h.condition("Progressing")
                                                                    .getReason()));
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo(
                            "Cluster version is 4.1.0; the update to 4.1.1 does not start:"
                                    + " ClusterVersion version: annotation"
                                    + " upshift.io/maintenance-window \"Saturday night\": expected"
                                    + " \"<days> <HH:MM>-<HH:MM> [time zone]\", e.g. \"Sat,Sun"
                                    + " 02:00-06:00 Europe/Berlin\"");
            h.passesWritten(1);
            assertThat(h.clusterVersion().getStatus().getHistory().get(0).getVersion())
                    .isEqualTo("4.1.0");

            annotate(h, MaintenanceWindow.ANNOTATION, null); // removed: it starts
            await("4.1.1").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            assertThat(
                            Conditions.CLUSTER
                                    .find(
                                            h.clusterVersion().getStatus().getConditions(),
                                            "Progressing")
                                    .getReason())
                    .isNotEqualTo("InvalidMaintenanceWindow");
        }
    }

    /** The ClusterVersion's annotation set (or removed, for null), as an administrator would. */
    private static void annotate(ControllerHarness h, String key, String value) {
        Conflicts.retry(
                () ->
                        h.client
                                .resources(ClusterVersion.class)
                                .withName("version")
                                .edit(
                                        cv -> {
                                            Map<String, String> a =
                                                    cv.getMetadata().getAnnotations() == null
                                                            ? new HashMap<>()
                                                            : new HashMap<>(
                                                                    cv.getMetadata()
                                                                            .getAnnotations());
                                            if (value == null) a.remove(key);
                                            else a.put(key, value);
                                            cv.getMetadata().setAnnotations(a);
                                            return cv;
                                        }));
    }

    private static UpdateStatusStatus assess(ControllerHarness h, Instant at) {
        List<ClusterOperator> operators =
                h.client.resources(ClusterOperator.class).list().getItems();
        return UpdateAssessment.assess(
                new ClusterState(
                        h.clusterVersion(),
                        operators,
                        List.of(),
                        List.of(),
                        List.of(),
                        "",
                        Optional.empty(),
                        List.of()),
                at,
                at);
    }
}
