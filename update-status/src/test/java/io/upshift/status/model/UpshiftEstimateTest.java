package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.MCO;
import static io.upshift.status.model.TestCluster.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.api.update.Insight;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.UpshiftEstimate;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.status.estimate.UpdateEnd;
import io.upshift.status.render.Details;
import io.upshift.status.render.EstimateSource;
import io.upshift.status.render.StatusRenderer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Upshift's estimates in the assessment and in the text: from recorded times, at a given moment.
 */
class UpshiftEstimateTest {
    private final TestCluster cluster =
            new TestCluster()
                    .operator("etcd", TestCluster.NEW)
                    .operator("network", TestCluster.OLD);

    private static String ago(Duration d) {
        return RunLevelTimes.format(NOW.minus(d));
    }

    private static Map<String, String> times(Duration startedAgo, Duration doneAgo) {
        return doneAgo == null
                ? Map.of(NodeAnnotations.UPDATE_STARTED_AT, ago(startedAgo))
                : Map.of(
                        NodeAnnotations.UPDATE_STARTED_AT,
                        ago(startedAgo),
                        NodeAnnotations.UPDATE_DONE_AT,
                        ago(doneAgo));
    }

    /**
     * Run-levels 00 (2 min) and 10 (10 min) done, 20 running for 2 min, machine-config's 55 to
     * come; two workers at a time, one updated in 4 min, two updating, one waiting (3 min in an
     * earlier rollout).
     */
    private TestCluster midUpdate() {
        return midUpdate(cluster, Duration.ofMinutes(1));
    }

    private static TestCluster midUpdate(TestCluster cluster, Duration w2Started) {
        cluster.cvAnnotations.put(
                RunLevelTimes.ANNOTATION,
                new RunLevelTimes(
                                "example.com/release:" + TestCluster.NEW,
                                TestCluster.NEW,
                                List.of(
                                        new RunLevelTimes.Level(
                                                "00",
                                                4,
                                                List.of(),
                                                ago(Duration.ofMinutes(14)),
                                                ago(Duration.ofMinutes(12))),
                                        new RunLevelTimes.Level(
                                                "10",
                                                3,
                                                List.of("etcd"),
                                                ago(Duration.ofMinutes(12)),
                                                ago(Duration.ofMinutes(2))),
                                        new RunLevelTimes.Level(
                                                "20",
                                                3,
                                                List.of("network"),
                                                ago(Duration.ofMinutes(2)),
                                                null),
                                        new RunLevelTimes.Level(
                                                "55", 3, List.of("machine-config"), null, null)),
                                null)
                        .toAnnotation());
        cluster.workerMaxUnavailable = 2;
        cluster.node(
                "w1", "new", "new", "Done", times(Duration.ofMinutes(5), Duration.ofMinutes(1)));
        cluster.node("w2", "old", "new", "Working", times(w2Started, Duration.ofDays(3)));
        cluster.node(
                "w3", "old", "new", "Working", times(Duration.ofSeconds(30), Duration.ofDays(3)));
        cluster.node(
                "w4",
                "old",
                "old",
                "Done",
                times(Duration.ofDays(3).plusMinutes(3), Duration.ofDays(3)));
        return cluster;
    }

    private static Map<String, UpshiftEstimate> nodeEstimates(UpdateStatusStatus status) {
        Map<String, UpshiftEstimate> out = new TreeMap<>();
        for (Insight i : status.insights()) {
            if (i.node() != null && i.node().upshiftEstimate() != null) {
                out.put(i.node().name(), i.node().upshiftEstimate());
            }
        }
        return out;
    }

    @Test
    void
            theControlPlaneRunLevelsLeftTakeTheMeanOfThoseDoneAndNodesTakeTheirPoolsMeasuredTimeTwoAtATime() {
        UpdateStatusStatus status = midUpdate().assess();
        UpshiftEstimate cp =
                status.insights().stream()
                        .filter(i -> i.clusterVersion() != null)
                        .findFirst()
                        .orElseThrow()
                        .clusterVersion()
                        .upshiftEstimate();
        // 20 ends 10 min after it started, then 55 takes 10 min
        assertThat(cp)
                .isEqualTo(
                        new UpshiftEstimate(
                                NOW.plus(Duration.ofMinutes(18)).toString(),
                                "2 of 4 run-levels left, at the mean of this update's done"
                                        + " run-levels: 10.0 min with ClusterOperators (1), 120 s"
                                        + " without (1)"));
        assertThat(nodeEstimates(status))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "w1",
                                        new UpshiftEstimate(
                                                NOW.minus(Duration.ofMinutes(1)).toString(),
                                                UpshiftEstimate.UPDATED),
                                "w2",
                                        new UpshiftEstimate(
                                                NOW.plus(Duration.ofMinutes(3)).toString(),
                                                RolloutEstimates.NODE_UPDATING),
                                "w3",
                                        new UpshiftEstimate(
                                                NOW.plus(Duration.ofSeconds(210)).toString(),
                                                RolloutEstimates.NODE_UPDATING),
                                "w4",
                                        new UpshiftEstimate(
                                                NOW.plus(Duration.ofMinutes(7)).toString(),
                                                RolloutEstimates.NODE_WAITING)));
        UpshiftEstimate pool =
                status.workerPools()
                        .get(0)
                        .informers()
                        .get(0)
                        .insights()
                        .get(0)
                        .machineConfigPool()
                        .upshiftEstimate();
        assertThat(pool)
                .isEqualTo(
                        new UpshiftEstimate(
                                NOW.plus(Duration.ofMinutes(7)).toString(),
                                "3 nodes left, 2 at a time, 240 s each (mean of 1 node measured in"
                                        + " this rollout)"));
        assertThat(UpdateEnd.of(status)).contains(NOW.plus(Duration.ofMinutes(18)));
    }

    @Test
    void upshiftsTextShowsItsEstimatesAndWhatTheyRestOnWhileOcsTextStaysOcs() {
        UpdateStatusStatus status = midUpdate().assess();
        String upshift = StatusRenderer.render(status, NOW, Details.nodes, EstimateSource.upshift);
        assertThat(upshift)
                .contains(
                        "Duration:        30m (Est. Time Remaining: 18m)\n"
                                + "Estimate Basis:  2 of 4 run-levels left, ")
                .contains(
                        "WORKER POOL   ASSESSMENT    COMPLETION   STATUS                           "
                            + "        EST\n"
                            + "worker        Progressing   25% (1/4)    2 Available, 2 Progressing,"
                            + " 0 Draining   +7m\n");
        assertThat(rows(upshift)).containsExactly("w2 +3m", "w3 +3m30s", "w4 +7m", "w1 -");
        String oc = StatusRenderer.render(status, NOW, Details.nodes, EstimateSource.oc);
        assertThat(oc)
                .isEqualTo(StatusRenderer.render(status, NOW, Details.nodes))
                .doesNotContain("Estimate Basis")
                .doesNotContain("EST\n");
        assertThat(rows(oc)).containsExactly("w2 +5m", "w3 +5m", "w4 ?", "w1 -");
    }

    @Test
    void withoutRunLevelTimesOrMeasuredNodesUpshiftsTextSaysSo() {
        cluster.node("w1", "old", "old", "Done", Map.of());
        UpdateStatusStatus status = cluster.assess();
        String text = StatusRenderer.render(status, NOW, Details.nodes, EstimateSource.upshift);
        assertThat(text)
                .contains(
                        "(Est. Time Remaining: unknown)\n"
                                + "Estimate Basis:  no run-level times on the ClusterVersion"
                                + " (annotation upshift.io/run-level-times)\n")
                .contains(
                        "worker        Pending      0% (0/1)     1 Available, 0 Progressing, 0"
                                + " Draining   ?\n");
        assertThat(rows(text)).containsExactly("w1 ?");
        assertThat(UpdateEnd.of(status)).isEmpty();
    }

    /** Node rows as "name est". */
    private static List<String> rows(String text) {
        return text.lines()
                .filter(l -> l.startsWith("w"))
                .map(l -> l.split(" +"))
                .filter(f -> f.length >= 5 && !f[0].equals("worker"))
                .map(f -> f[0] + " " + f[4])
                .toList();
    }

    @Test
    void
            aWaitingNodesEstimateThatMovedByLessThanATenthOfItsTimeLeftKeepsItsOldValueSoItsObjectIsNotRewritten() {
        UpdateStatusStatus before = InsightHistory.settle(List.of(), midUpdate().assess(), NOW);
        TestCluster slightly =
                midUpdate(
                        new TestCluster()
                                .operator("etcd", TestCluster.NEW)
                                .operator("network", TestCluster.OLD),
                        Duration.ofSeconds(70));
        Map<String, UpshiftEstimate> moved = nodeEstimates(slightly.assess());
        assertThat(moved.get("w4").completedAt())
                .isEqualTo(NOW.plusSeconds(410).toString()); // 10 s earlier, 7 min left
        assertThat(nodeEstimates(InsightHistory.settle(before, slightly.assess(), NOW)))
                .isEqualTo(nodeEstimates(before));

        TestCluster more =
                midUpdate(
                        new TestCluster()
                                .operator("etcd", TestCluster.NEW)
                                .operator("network", TestCluster.OLD),
                        Duration.ofMinutes(2));
        Map<String, UpshiftEstimate> settled =
                nodeEstimates(InsightHistory.settle(before, more.assess(), NOW));
        assertThat(settled.get("w4").completedAt())
                .isEqualTo(NOW.plus(Duration.ofMinutes(6)).toString());
    }

    @Test
    void anUnchangedClusterGivesUnchangedEstimatesAMinuteLaterWhileNothingOverruns() {
        UpdateStatusStatus first = midUpdate().assess();
        UpdateStatusStatus later =
                UpdateAssessment.assess(cluster.state(), NOW.plusSeconds(50), NOW.plusSeconds(50));
        assertThat(nodeEstimates(later)).isEqualTo(nodeEstimates(first));
        Instant w2 = Instant.parse(nodeEstimates(first).get("w2").completedAt());
        assertThat(w2).isEqualTo(NOW.plus(Duration.ofMinutes(3)));
        assertThat(MCO).isNotEmpty();
    }
}
