package io.upshift.status.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.status.estimate.RunLevelTimes.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The control plane's end from recorded run-level times: pure, at a given moment. */
class ControlPlaneEstimateTest {
    static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
    static final String IMAGE = "example.com/release@sha256:b";

    private static Level level(
            String runLevel, String operator, Integer startedAt, Integer doneAt) {
        return new Level(
                runLevel,
                3,
                operator == null ? List.of() : List.of(operator),
                startedAt == null ? null : RunLevelTimes.format(T0.plusSeconds(startedAt)),
                doneAt == null ? null : RunLevelTimes.format(T0.plusSeconds(doneAt)));
    }

    /** 00 took 2 s, 10 took 10 s, 20 runs since second 12; 30 and machine-config's 55 wait. */
    private static RunLevelTimes midUpdate(RunLevelTimes.Previous previous) {
        return new RunLevelTimes(
                IMAGE,
                "1.1.0",
                List.of(
                        level("00", null, 0, 2),
                        level("10", "etcd", 2, 12),
                        level("20", "network", 12, null),
                        level("30", "dns", null, null),
                        level("55", "machine-config", null, null)),
                previous);
    }

    @Test
    void runLevelsLeftTakeTheMeanOfThisUpdatesDoneRunLevelsOfTheirKind() {
        ControlPlaneEstimate.Result r =
                ControlPlaneEstimate.of(midUpdate(null), IMAGE, T0.plusSeconds(16), null);
        assertThat(r.completedAt())
                .isEqualTo(T0.plusSeconds(42)); // 20 ends at 22, 30 at 32, 55 at 42
        assertThat(r.rolloutStart()).isEqualTo(T0.plusSeconds(32));
        assertThat(r.basis())
                .isEqualTo(
                        "3 of 5 run-levels left, at the mean of this update's done run-levels: "
                                + "10.0 s with ClusterOperators (1), 2.0 s without (1)");
    }

    @Test
    void theMachineConfigRunLevelWaitsForTheControlPlaneNodesWhichStartWithIt() {
        PoolRollout masters =
                new PoolRollout(
                        List.of(pending("m0"), pending("m1"), pending("m2")),
                        1,
                        new NodeTime(
                                Duration.ofSeconds(5),
                                "mean of 3 nodes measured in earlier rollouts"),
                        T0.plusSeconds(16));
        ControlPlaneEstimate.Result r =
                ControlPlaneEstimate.of(midUpdate(null), IMAGE, T0.plusSeconds(16), masters);
        assertThat(r.rolloutStart())
                .isEqualTo(T0.plusSeconds(32)); // 55 starts at 32, and the nodes with it
        assertThat(r.completedAt())
                .isEqualTo(
                        T0.plusSeconds(
                                47)); // 3 nodes one at a time, 5 s each: after its operator's 10 s
        assertThat(r.basis())
                .endsWith(
                        "; control-plane nodes: 3 nodes left, 1 at a time, 5.0 s each (mean of 3"
                                + " nodes measured in earlier rollouts)");
    }

    @Test
    void
            aRunLevelAControllerTookOverIsLeftOutOfTheMeanAndBeforeAnyOfItsKindIsDoneTheOneRunningSetsTheLeast() {
        // the controller was replaced while 10 ran: 30 s of it were no controller's; 15 took 10 s,
        // 20 runs since 42
        RunLevelTimes times =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(
                                level("00", null, 0, 2),
                                new Level(
                                        "10",
                                        3,
                                        List.of("etcd"),
                                        RunLevelTimes.format(T0.plusSeconds(2)),
                                        RunLevelTimes.format(T0.plusSeconds(32)),
                                        true),
                                level("15", "dns", 32, 42),
                                level("20", "network", 42, null),
                                level("30", "ingress", null, null)),
                        null);
        ControlPlaneEstimate.Result r =
                ControlPlaneEstimate.of(times, IMAGE, T0.plusSeconds(45), null);
        assertThat(r.completedAt()).isEqualTo(T0.plusSeconds(62)); // 20 ends at 52, 30 takes 10 s
        assertThat(r.basis())
                .isEqualTo(
                        "2 of 5 run-levels left, at the mean of this update's done run-levels: 10.0"
                                + " s with ClusterOperators (1), 2.0 s without (1); 1 run-level a"
                                + " controller took over left out");

        RunLevelTimes early =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(
                                level("00", null, 0, 2),
                                level("10", "etcd", 2, null),
                                level("20", "network", null, null)),
                        null);
        ControlPlaneEstimate.Result e =
                ControlPlaneEstimate.of(early, IMAGE, T0.plusSeconds(8), null);
        assertThat(e.completedAt())
                .isEqualTo(T0.plusSeconds(14)); // 10 has run 6 s: 20 takes at least that
        assertThat(e.basis())
                .isEqualTo(
                        "2 of 3 run-levels left, at the mean of this update's done run-levels: 2.0"
                            + " s without (1); those with ClusterOperators at least as long as the"
                            + " one running (6.0 s)");
    }

    @Test
    void withAPreviousUpdateEachRunLevelTakesWhatItTookThenScaledByHowThisOneCompares() {
        RunLevelTimes.Previous before =
                new RunLevelTimes.Previous(
                        "1.0.0", Map.of("00", 4.0, "10", 20.0, "20", 20.0, "30", 40.0, "55", 60.0));
        ControlPlaneEstimate.Result r =
                ControlPlaneEstimate.of(midUpdate(before), IMAGE, T0.plusSeconds(16), null);
        // twice as fast so far (12 s against 24 s): 20 ends at 12 + 10, 30 takes 20 s, 55 takes 30
        // s
        assertThat(r.completedAt()).isEqualTo(T0.plusSeconds(72));
        assertThat(r.basis())
                .isEqualTo("3 of 5 run-levels left, timed by the update to 1.0.0 (x0.50)");
    }

    @Test
    void aRunLevelTakingLongerThanPredictedMovesTheEndInQuarterSteps() {
        Instant at23 =
                ControlPlaneEstimate.of(midUpdate(null), IMAGE, T0.plusSeconds(23), null)
                        .completedAt();
        assertThat(at23)
                .isEqualTo(
                        T0.plusMillis(
                                24_500 + 20_000)); // 20 predicted to end at 22: now 24.5, then 30
        // and 55
        assertThat(
                        ControlPlaneEstimate.of(midUpdate(null), IMAGE, T0.plusSeconds(24), null)
                                .completedAt())
                .isEqualTo(at23);
        assertThat(
                        ControlPlaneEstimate.of(midUpdate(null), IMAGE, T0.plusMillis(24_600), null)
                                .completedAt())
                .isEqualTo(at23.plusMillis(2500));
    }

    @Test
    void beforeTheUpdateIsTimedTheLastCompleteOneIsReplayedFromNow() {
        RunLevelTimes last =
                new RunLevelTimes(
                        "example.com/release@sha256:a",
                        "1.0.0",
                        List.of(level("00", null, 0, 2), level("10", "etcd", 2, 12)),
                        null);
        ControlPlaneEstimate.Result r =
                ControlPlaneEstimate.of(last, IMAGE, T0.plusSeconds(100), null);
        assertThat(r.completedAt()).isEqualTo(T0.plusSeconds(112));
        assertThat(r.basis())
                .isEqualTo("2 of 2 run-levels left, timed by the update to 1.0.0 (x1.00)");
    }

    @Test
    void withoutTimesOrAnythingDoneThereIsNoEstimateAndTheBasisSaysWhy() {
        assertThat(ControlPlaneEstimate.of(null, IMAGE, T0, null).basis())
                .isEqualTo(
                        "no run-level times on the ClusterVersion (annotation"
                                + " upshift.io/run-level-times)");
        RunLevelTimes justStarted =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(level("00", null, 0, null), level("10", "etcd", null, null)),
                        null);
        RunLevelTimes notStarted =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(level("00", null, null, null), level("10", "etcd", null, null)),
                        null);
        assertThat(ControlPlaneEstimate.of(notStarted, IMAGE, T0.plusSeconds(1), null))
                .isEqualTo(
                        new ControlPlaneEstimate.Result(
                                null,
                                null,
                                "no run-level of this update finished yet, and none was timed"
                                        + " before"));
        assertThat(
                        ControlPlaneEstimate.of(
                                        justStarted, "example.com/release@sha256:c", T0, null)
                                .basis())
                .isEqualTo("the cluster-version controller has not started timing this update");
    }

    @Test
    void inAnUpdatesFirstSecondsWithNothingTimedEachRunLevelLeftIsGuessedAsLongAsTheRunningOne() {
        RunLevelTimes justStarted =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(
                                level("00", null, 0, null),
                                level("10", "etcd", null, null),
                                level("20", "dns", null, null)),
                        null);
        ControlPlaneEstimate.Result early =
                ControlPlaneEstimate.of(justStarted, IMAGE, T0.plusSeconds(3), null);
        // 00 has run 3 s: it ends now at the earliest, 10 and 20 take 3 s each
        assertThat(early.completedAt()).isEqualTo(T0.plusSeconds(9));
        assertThat(early.basis())
                .isEqualTo(
                        "3 of 3 run-levels left, no run-level of this update done yet, and none"
                                + " was timed before: each one left guessed as long as the one"
                                + " running has taken so far (3.0 s)");
        assertThat(
                        ControlPlaneEstimate.of(justStarted, IMAGE, T0.plusSeconds(5), null)
                                .completedAt())
                .as("the guess grows while nothing is done")
                .isEqualTo(T0.plusSeconds(15));
        RunLevelTimes oneDone =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(
                                level("00", null, 0, 5),
                                level("10", "etcd", 5, null),
                                level("20", "dns", null, null)),
                        null);
        assertThat(ControlPlaneEstimate.of(oneDone, IMAGE, T0.plusSeconds(6), null).basis())
                .as("no guess once a run-level is done")
                .doesNotContain("guessed");
    }

    private static PoolRollout.Node pending(String name) {
        return new PoolRollout.Node(name, PoolRollout.State.PENDING, null, null);
    }
}
