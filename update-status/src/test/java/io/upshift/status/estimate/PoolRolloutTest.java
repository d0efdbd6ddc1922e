package io.upshift.status.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.status.estimate.PoolRollout.Node;
import io.upshift.status.estimate.PoolRollout.State;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolRolloutTest {
    static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");
    static final NodeTime TEN_SECONDS =
            NodeTime.of(List.of(Duration.ofSeconds(8), Duration.ofSeconds(12)), List.of());

    private static Node running(String name, int secondsAgo) {
        return new Node(name, State.RUNNING, NOW.minusSeconds(secondsAgo), null);
    }

    private static Node pending(String name) {
        return new Node(name, State.PENDING, null, null);
    }

    private static Node done(String name, int secondsAgo) {
        return new Node(name, State.DONE, null, NOW.minusSeconds(secondsAgo));
    }

    @Test
    void theMeasuredTimeIsThisRolloutsMeanElseTheEarlierRolloutsElseUnknown() {
        assertThat(TEN_SECONDS)
                .isEqualTo(
                        new NodeTime(
                                Duration.ofSeconds(10),
                                "mean of 2 nodes measured in this rollout"));
        assertThat(NodeTime.of(List.of(), List.of(Duration.ofSeconds(4))))
                .isEqualTo(
                        new NodeTime(
                                Duration.ofSeconds(4),
                                "mean of 1 node measured in earlier rollouts"));
        assertThat(NodeTime.of(List.of(), List.of()).perNode()).isNull();
    }

    @Test
    void pendingNodesTakeTheFirstLaneToComeFree() {
        PoolRollout pool =
                new PoolRollout(
                        List.of(
                                done("a", 30),
                                done("b", 20),
                                running("c", 4),
                                running("d", 2),
                                pending("e"),
                                pending("f"),
                                pending("g")),
                        2,
                        TEN_SECONDS,
                        NOW);
        PoolRollout.Plan plan = pool.plan(null);
        assertThat(pool.started()).isTrue();
        assertThat(plan.nodeEnds())
                .containsEntry("c", NOW.plusSeconds(6))
                .containsEntry("d", NOW.plusSeconds(8))
                .containsEntry("e", NOW.plusSeconds(16))
                .containsEntry("f", NOW.plusSeconds(18))
                .containsEntry("g", NOW.plusSeconds(26));
        assertThat(plan.end()).isEqualTo(NOW.plusSeconds(26));
        assertThat(plan.basis())
                .isEqualTo(
                        "5 nodes left, 2 at a time, 10.0 s each (mean of 2 nodes measured in this"
                                + " rollout)");
    }

    @Test
    void aRolloutNotStartedStartsWhenToldAndOneBetweenNodesGoesOnFromTheLastDone() {
        PoolRollout waiting =
                new PoolRollout(
                        List.of(pending("a"), pending("b"), pending("c")), 2, TEN_SECONDS, NOW);
        assertThat(waiting.started()).isFalse();
        assertThat(waiting.plan(NOW.plusSeconds(5)).end()).isEqualTo(NOW.plusSeconds(25));
        assertThat(waiting.plan(null).end()).isNull();
        assertThat(waiting.plan(null).basis()).isEqualTo("waiting for the rollout to start");

        PoolRollout between =
                new PoolRollout(List.of(done("a", 0), pending("b")), 1, TEN_SECONDS, NOW);
        assertThat(between.plan(null).end()).isEqualTo(NOW.plusSeconds(10));
    }

    @Test
    void aNodeThatOverrunsEndsAQuarterOfItsTimeAfterNowAndStaysThereForThatLong() {
        PoolRollout late = new PoolRollout(List.of(running("a", 11)), 1, TEN_SECONDS, NOW);
        Instant end = late.plan(null).end();
        assertThat(end).isEqualTo(NOW.plusMillis(1500)); // started 11 s ago: 10 s, then 12.5 s
        PoolRollout later =
                new PoolRollout(
                        List.of(new Node("a", State.RUNNING, NOW.minusSeconds(11), null)),
                        1,
                        TEN_SECONDS,
                        NOW.plusSeconds(1));
        assertThat(later.plan(null).end()).isEqualTo(end);
    }

    @Test
    void noEstimateWhileANodeIsBlockedOrNothingWasMeasuredAndNoneLeftOnceAllAreDone() {
        assertThat(
                        new PoolRollout(
                                        List.of(
                                                new Node("a", State.BLOCKED, null, null),
                                                pending("b")),
                                        1,
                                        TEN_SECONDS,
                                        NOW)
                                .plan(NOW)
                                .basis())
                .isEqualTo("node a will not update without help");
        PoolRollout unmeasured =
                new PoolRollout(List.of(pending("a")), 1, NodeTime.of(List.of(), List.of()), NOW);
        assertThat(unmeasured.plan(NOW).end()).isNull();
        assertThat(unmeasured.plan(NOW).basis()).isEqualTo("no node update measured yet");
        PoolRollout finished = new PoolRollout(List.of(done("a", 3)), 1, TEN_SECONDS, NOW);
        assertThat(finished.finished()).isTrue();
        assertThat(finished.plan(NOW).end()).isNull();
    }

    @Test
    void pendingNodesWaitForThePoolsWindowAndSoakAndTheBasisSaysSo() {
        // NOW is Friday 10:00 UTC; the window opens at 10:00:25 for a minute: room for 6 nodes of
        // 10 s, less the soak
        RolloutPacing pacing =
                new RolloutPacing(
                        io.upshift.pools.model.MaintenanceWindow.parse("Fri 10:01-10:02"),
                        io.upshift.pools.model.SoakTime.parse("5s"));
        PoolRollout pool =
                new PoolRollout(
                        List.of(done("a", 2), pending("b"), pending("c")),
                        1,
                        TEN_SECONDS,
                        NOW,
                        pacing);
        PoolRollout.Plan plan = pool.plan(null);
        // b waits for a's soak (to 10:00:03, 2.5 s after its lane is free), then for the window
        // (57 s more, to 10:01); c for b's soak: 10:01:10 + 5 s
        assertThat(plan.nodeEnds())
                .containsEntry("b", Instant.parse("2026-11-20T10:01:10Z"))
                .containsEntry("c", Instant.parse("2026-11-20T10:01:25Z"));
        assertThat(plan.basis())
                .isEqualTo(
                        "2 nodes left, 1 at a time, 10.0 s each (mean of 2 nodes measured in this"
                                + " rollout); waits included: 57.0 s for the maintenance window"
                                + " \"Fri 10:01-10:02\" (upshift.io/maintenance-window), 7.5 s of"
                                + " soak time 5s (upshift.io/soak-time)");

        // a node of 50 s that could start at 10:00:20 would end past the 10:01 close: next Friday
        RolloutPacing minute =
                new RolloutPacing(
                        io.upshift.pools.model.MaintenanceWindow.parse("Fri 10:00-10:01"), null);
        PoolRollout late =
                new PoolRollout(
                        List.of(pending("b")),
                        1,
                        NodeTime.of(List.of(), List.of(Duration.ofSeconds(50))),
                        NOW,
                        minute);
        assertThat(late.plan(NOW.plusSeconds(20)).end())
                .isEqualTo(Instant.parse("2026-11-27T10:00:50Z"));
        // a node longer than the window itself starts at once: waiting would never help
        PoolRollout longer =
                new PoolRollout(
                        List.of(pending("b")),
                        1,
                        NodeTime.of(List.of(), List.of(Duration.ofSeconds(90))),
                        NOW,
                        minute);
        assertThat(longer.plan(NOW.plusSeconds(20)).end())
                .isEqualTo(Instant.parse("2026-11-20T10:01:50Z"));
    }
}
