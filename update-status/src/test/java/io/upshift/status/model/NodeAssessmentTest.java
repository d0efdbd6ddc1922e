package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.MCO;
import static io.upshift.status.model.TestCluster.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.PoolInsight;
import io.upshift.status.render.Details;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeAssessmentTest {
    private final TestCluster cluster =
            new TestCluster()
                    .operator("etcd", TestCluster.NEW)
                    .operator("network", TestCluster.NEW);

    /** The node table row of a node, as rendered: "name assessment phase version est message". */
    private String row(String name) {
        return cluster.render(Details.nodes)
                .lines()
                .filter(l -> l.startsWith(name + " "))
                .findFirst()
                .map(l -> l.replaceAll(" +", " ").strip())
                .orElseThrow(() -> new AssertionError("no row for " + name));
    }

    private List<HealthInsight> health() {
        return UpdateAssessment.health(cluster.assess());
    }

    private PoolInsight workerPool() {
        return cluster.assess()
                .workerPools()
                .get(0)
                .informers()
                .get(0)
                .insights()
                .get(0)
                .machineConfigPool();
    }

    @Test
    void aNodeOnTheNewConfigIsCompleted() {
        cluster.node("node-a", "new", "new", "Done", Map.of());
        assertThat(row("node-a")).isEqualTo("node-a Completed Updated 1.1.0 -");
        assertThat(workerPool().assessment()).isEqualTo("Completed");
    }

    @Test
    void aNodeNotYetAskedToUpdateIsOutdatedAndPending() {
        cluster.node("node-a", "old", "old", "Done", Map.of());
        assertThat(row("node-a")).isEqualTo("node-a Outdated Pending 1.0.0 ?");
        assertThat(workerPool().assessment()).isEqualTo("Pending");
    }

    @Test
    void nodesOfAPausedPoolAreExcludedAndRaiseAWarning() {
        cluster.workerPaused = true;
        cluster.node("node-a", "old", "old", "Done", Map.of());
        assertThat(row("node-a")).isEqualTo("node-a Excluded Paused 1.0.0 -");
        assertThat(workerPool().assessment()).isEqualTo("Excluded");
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().summary())
                                    .isEqualTo(
                                            "Outdated nodes in a paused pool 'worker' will not be"
                                                    + " updated");
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Warning);
                        });
    }

    @Test
    void aPoolHeldByARolloutControlRaisesAnInfoInsightSinceTheHold() {
        cluster.node("node-a", "new", "new", "Done", Map.of());
        cluster.node("node-b", "old", "old", "Done", Map.of());
        cluster.workerConditions.add(
                new io.fabric8.openshift.api.model.machineconfiguration.v1
                        .MachineConfigPoolCondition(
                        NOW.minus(Duration.ofSeconds(12)).toString(),
                        "Soaking node node-a for 30s (upshift.io/soak-time) after its update: the"
                                + " next node starts at 2026-11-20T10:00:18Z",
                        "SoakTime",
                        "True",
                        "RolloutHeld"));
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Info);
                            assertThat(h.impact().summary())
                                    .isEqualTo(
                                            "Pool worker holds its next node: Soaking node node-a"
                                                    + " for 30s (upshift.io/soak-time) after its"
                                                    + " update: the next node starts at"
                                                    + " 2026-11-20T10:00:18Z");
                            assertThat(h.startedAt()).isEqualTo("2026-11-20T09:59:48Z");
                        });
        assertThat(cluster.render(Details.none))
                .contains("12s     Info    Update Speed   Pool worker holds its next node");
    }

    @Test
    void aPoolHeldByAFailedHookRaisesAWarning() {
        cluster.node("node-a", "old", "old", "Done", Map.of());
        cluster.workerConditions.add(
                new io.fabric8.openshift.api.model.machineconfiguration.v1
                        .MachineConfigPoolCondition(
                        NOW.minus(Duration.ofSeconds(12)).toString(),
                        "Job openshift-machine-config-operator/upshift-pre-drain-node-a-0123456789,"
                                + " the pre-drain hook (upshift.io/pre-drain-hook) of node node-a,"
                                + " failed: BackoffLimitExceeded: Job has reached the specified"
                                + " backoff limit; the node is not told MachineConfig new (nor"
                                + " drained). Delete the Job to run the hook again",
                        "HookFailed",
                        "True",
                        "RolloutHeld"));
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Warning);
                            assertThat(h.impact().summary())
                                    .startsWith(
                                            "Pool worker holds its next node: Job"
                                                + " openshift-machine-config-operator/upshift-pre-drain-node-a-0123456789,");
                        });
    }

    @Test
    void aNodeAskedToDrainIsDraining() {
        cluster.node(
                "node-a",
                "old",
                "new",
                "Working",
                Map.of(
                        MCO + "desiredDrain",
                        "drain-rendered-worker-new",
                        MCO + "lastAppliedDrain",
                        "uncordon-rendered-worker-old"));
        assertThat(row("node-a")).isEqualTo("node-a Progressing Draining 1.0.0 +10m");
        assertThat(workerPool().count("Draining")).isEqualTo(1);
        assertThat(workerPool().count("Progressing")).isEqualTo(1);
    }

    @Test
    void workingAndRebootingNodesAreProgressing() {
        cluster.node("node-a", "old", "new", "Working", Map.of());
        cluster.node("node-b", "old", "new", "Rebooting", Map.of());
        assertThat(row("node-a")).isEqualTo("node-a Progressing Updating 1.0.0 +5m");
        assertThat(row("node-b")).isEqualTo("node-b Progressing Rebooting 1.0.0 +5m");
        assertThat(workerPool().assessment()).isEqualTo("Progressing");
    }

    @Test
    void aDegradedNodeShowsItsReasonWithTheNameShortenedAndRaisesAnError() {
        cluster.node(
                "node-alpha",
                "old",
                "new",
                "Degraded",
                Map.of(MCO + "reason", "failed to drain node: node-alpha after 1 hour"));
        assertThat(row("node-alpha"))
                .isEqualTo(
                        "node-alpha Degraded Updating 1.0.0 ? failed to drain node: <node> after 1"
                                + " hour");
        assertThat(workerPool().assessment()).isEqualTo("Degraded");
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().summary())
                                    .isEqualTo("Node node-alpha is degraded");
                            assertThat(h.impact().description())
                                    .isEqualTo("failed to drain node: node-alpha after 1 hour");
                            assertThat(h.impact().level()).isEqualTo(ImpactLevel.Error);
                            assertThat(h.startedAt()).isNull();
                        });
    }

    @Test
    void shortNodeNamesAreNotReplacedInMessages() {
        cluster.node("n1", "old", "new", "Degraded", Map.of(MCO + "reason", "n1 failed"));
        assertThat(row("n1")).endsWith("n1 failed");
    }

    @Test
    void aNodeNotReadyForLongIsUnavailableAndRaisesAWarning() {
        cluster.node("node-a", "old", "old", "Done", Map.of());
        cluster.lastNode()
                .getStatus()
                .setConditions(
                        List.of(
                                new NodeConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("False")
                                        .withMessage("kubelet stopped")
                                        .withLastTransitionTime(
                                                NOW.minus(Duration.ofMinutes(22)).toString())
                                        .build()));
        assertThat(row("node-a")).isEqualTo("node-a Unavailable Pending 1.0.0 ? Not ready");
        assertThat(health())
                .singleElement()
                .satisfies(
                        h -> {
                            assertThat(h.impact().summary()).isEqualTo("Node node-a is not ready");
                            assertThat(h.impact().description())
                                    .isEqualTo(
                                            "Node has a Ready!=True condition with Reason \"Not"
                                                    + " ready\" and message \"kubelet stopped\"");
                            assertThat(h.startedAt())
                                    .isEqualTo(NOW.minus(Duration.ofMinutes(22)).toString());
                        });
        assertThat(workerPool().count("Available")).isZero();
    }

    @Test
    void aNodeNotReadyForAMomentRaisesNothing() {
        cluster.node("node-a", "old", "old", "Done", Map.of());
        cluster.lastNode()
                .getStatus()
                .setConditions(
                        List.of(
                                new NodeConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("False")
                                        .withLastTransitionTime(
                                                NOW.minus(Duration.ofMinutes(2)).toString())
                                        .build()));
        assertThat(row("node-a")).isEqualTo("node-a Unavailable Pending 1.0.0 ? Not ready");
        assertThat(health()).isEmpty();
    }

    @Test
    void aCordonedNodeIsUnavailableButNeedsNoAttention() {
        cluster.node("node-a", "new", "new", "Done", Map.of());
        cluster.lastNode().getSpec().setUnschedulable(true);
        assertThat(row("node-a"))
                .isEqualTo("node-a Unavailable Updated 1.1.0 - Node is marked unschedulable");
        assertThat(health()).isEmpty();
    }

    @Test
    void aNodeWhoseConfigIsUnknownHasNoVersion() {
        cluster.node("node-a", "gone", "gone", "Done", Map.of());
        assertThat(row("node-a")).isEqualTo("node-a Outdated Pending ? ?");
    }

    @Test
    void beyondTenRowsOnlyNodesNeedingAttentionAreListed() {
        for (int i = 0; i < 12; i++) {
            cluster.node(String.format("node-%02d", i), "old", "old", "Done", Map.of());
        }
        cluster.node("node-zz", "old", "new", "Degraded", Map.of(MCO + "reason", "broken"));
        String text = cluster.render(Details.none);
        assertThat(text)
                .contains("node-zz")
                .contains("node-08")
                .doesNotContain("node-09 ")
                .doesNotContain("node-11")
                .contains(
                        "Omitted additional 3 Total, 0 Completed, 3 Available, 0 Progressing, 3"
                                + " Outdated, 0 Draining, 0 Excluded, and 0 Degraded nodes.");
        assertThat(cluster.render(Details.nodes)).contains("node-11").doesNotContain("Omitted");
    }
}
