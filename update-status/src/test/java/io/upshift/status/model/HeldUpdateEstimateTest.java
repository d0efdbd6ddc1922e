package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.NEW;
import static io.upshift.status.model.TestCluster.NOW;
import static io.upshift.status.model.TestCluster.condition;
import static io.upshift.status.model.TestCluster.history;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.UpdateBuilder;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.SoakTime;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.status.estimate.UpdateEnd;
import io.upshift.status.render.Details;
import io.upshift.status.render.EstimateSource;
import io.upshift.status.render.StatusRenderer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An update the update's maintenance window holds: estimated as if it started when the window
 * opens, the pools' soak included, and said so in the text.
 */
class HeldUpdateEstimateTest {
    static final String HELD =
            "the update to 1.2.0 waits for the maintenance window \"Sat 02:00-06:00\""
                    + " (upshift.io/maintenance-window on ClusterVersion version), which opens at"
                    + " 2026-11-21T02:00:00Z";

    private static String ago(Duration d) {
        return RunLevelTimes.format(NOW.minus(d));
    }

    /**
     * At 1.1.0 since a day (run-level 00 took 2 min, machine-config's 80 took 5 min), two workers
     * that took 3 min each; 1.2.0 asked for and held by the window (NOW is a Friday).
     */
    static TestCluster held(String window) {
        TestCluster c = new TestCluster().operator("etcd", NEW).operator("machine-config", NEW);
        c.history.clear();
        c.history.add(
                history(
                        "Completed",
                        NEW,
                        NOW.minus(Duration.ofDays(1)),
                        NOW.minus(Duration.ofDays(1)).plus(Duration.ofMinutes(7))));
        c.cvConditions.clear();
        c.cvConditions.add(
                condition(
                        "Progressing",
                        "False",
                        "MaintenanceWindow",
                        "Cluster version is " + NEW + "; " + HELD,
                        NOW.minus(Duration.ofDays(1))));
        c.cvConditions.add(condition("Failing", "False", "", "", NOW.minus(Duration.ofDays(1))));
        c.cvAnnotations.put(MaintenanceWindow.ANNOTATION, window);
        c.cvAnnotations.put(
                RunLevelTimes.ANNOTATION,
                new RunLevelTimes(
                                "example.com/release:" + NEW,
                                NEW,
                                List.of(
                                        new RunLevelTimes.Level(
                                                "00",
                                                4,
                                                List.of(),
                                                ago(Duration.ofMinutes(24 * 60)),
                                                ago(Duration.ofMinutes(24 * 60 - 2))),
                                        new RunLevelTimes.Level(
                                                "80",
                                                3,
                                                List.of("machine-config"),
                                                ago(Duration.ofMinutes(24 * 60 - 2)),
                                                ago(Duration.ofMinutes(24 * 60 - 7)))),
                                null)
                        .toAnnotation());
        c.desiredUpdate =
                new UpdateBuilder()
                        .withVersion("1.2.0")
                        .withImage("example.com/release:1.2.0")
                        .build();
        for (String name : List.of("w1", "w2"))
            c.node(
                    name,
                    "new",
                    "new",
                    "Done",
                    Map.of(
                            NodeAnnotations.UPDATE_STARTED_AT,
                            ago(Duration.ofMinutes(24 * 60 - 2)),
                            NodeAnnotations.UPDATE_DONE_AT,
                            ago(Duration.ofMinutes(24 * 60 - 5))));
        return c;
    }

    private static UpshiftEstimate estimate(UpdateStatusStatus s) {
        return s.controlPlane()
                .informers()
                .get(0)
                .insights()
                .get(0)
                .clusterVersion()
                .upshiftEstimate();
    }

    @Test
    void theHeldUpdateIsEstimatedFromWhenTheWindowOpensAndItsEndMovesByTheWait() {
        UpdateStatusStatus at2 = held("Sat 02:00-06:00").assess();
        UpshiftEstimate e = estimate(at2);
        Instant opens = Instant.parse("2026-11-21T02:00:00Z");
        assertThat(e.basis())
                .startsWith(
                        "starts when the update's maintenance window opens at"
                                + " 2026-11-21T02:00:00Z; control plane: ");
        Instant end = Instant.parse(e.completedAt());
        // two run-levels (2 + 5 min); the workers from the machine-config run-level's start, one
        // at a time, 3 min each: 2 + 3 + 3 min
        assertThat(Duration.between(opens, end)).isEqualTo(Duration.ofMinutes(8));
        assertThat(UpdateEnd.of(at2)).contains(end);

        // a window opening two hours later moves the end by two hours
        UpdateStatusStatus at4 = held("Sat 04:00-06:00").assess();
        assertThat(Duration.between(end, UpdateEnd.of(at4).orElseThrow()))
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void aPoolsSoakTimeIsWaitedForAndSaidSo() {
        TestCluster c = held("Sat 02:00-06:00");
        c.workerAnnotations.put(SoakTime.ANNOTATION, "1m");
        UpshiftEstimate e = estimate(c.assess());
        assertThat(
                        Duration.between(
                                Instant.parse("2026-11-21T02:00:00Z"),
                                Instant.parse(e.completedAt())))
                .isEqualTo(Duration.ofMinutes(9));
        assertThat(e.basis())
                .contains("; waits included: 60.0 s of soak time 1m (upshift.io/soak-time)");
    }

    @Test
    void theTextSaysWhatWaitsAndOnlyUpshiftsEstimateSaysWhen() {
        TestCluster c = held("Sat 02:00-06:00");
        UpdateStatusStatus s = c.assess();
        String oc = StatusRenderer.render(s, NOW, Details.none, EstimateSource.oc);
        assertThat(oc)
                .isEqualTo(
                        StatusRenderer.NOT_UPDATING
                                + "The update to 1.2.0 waits for the maintenance window \"Sat"
                                + " 02:00-06:00\" (upshift.io/maintenance-window on ClusterVersion"
                                + " version), which opens at 2026-11-21T02:00:00Z.\n");
        String upshift = StatusRenderer.render(s, NOW, Details.none, EstimateSource.upshift);
        assertThat(upshift)
                .startsWith(oc)
                .contains(
                        "Est. Time Remaining: 16h8m (the waits included), to"
                                + " 2026-11-21T02:08:00Z\n")
                .contains("Estimate Basis: starts when the update's maintenance window opens");
    }

    @Test
    void aWindowThatDoesNotParseIsSaidWithoutAnEstimate() {
        TestCluster c = held("Saturday night");
        c.cvConditions.set(
                0,
                condition(
                        "Progressing",
                        "False",
                        "InvalidMaintenanceWindow",
                        "Cluster version is "
                                + NEW
                                + "; the update to 1.2.0 does not start: ClusterVersion version:"
                                + " annotation upshift.io/maintenance-window \"Saturday night\":"
                                + " expected \"<days> <HH:MM>-<HH:MM> [time zone]\"",
                        NOW.minus(Duration.ofDays(1))));
        UpdateStatusStatus s = c.assess();
        assertThat(estimate(s)).isNull();
        assertThat(StatusRenderer.render(s, NOW, Details.none, EstimateSource.upshift))
                .isEqualTo(
                        StatusRenderer.NOT_UPDATING
                                + "The update to 1.2.0 does not start: ClusterVersion version:"
                                + " annotation upshift.io/maintenance-window \"Saturday night\":"
                                + " expected \"<days> <HH:MM>-<HH:MM> [time zone]\".\n");
    }

    @Test
    void aClusterNotHeldSaysNothingMore() {
        TestCluster c = held("Sat 02:00-06:00");
        c.cvConditions.set(
                0,
                condition(
                        "Progressing",
                        "False",
                        "",
                        "Cluster version is " + NEW,
                        NOW.minus(Duration.ofDays(1))));
        UpdateStatusStatus s = c.assess();
        assertThat(estimate(s)).isNull();
        assertThat(StatusRenderer.render(s, NOW, Details.none, EstimateSource.upshift))
                .isEqualTo(StatusRenderer.NOT_UPDATING);
    }
}
