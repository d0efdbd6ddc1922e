package io.upshift.status.model;

import static io.upshift.status.model.TestCluster.MCO;
import static io.upshift.status.model.TestCluster.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeBuilder;
import io.upshift.api.update.HealthInsight;
import io.upshift.pools.disruption.DisruptionPlan;
import io.upshift.pools.machineconfignode.NodeStatus;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.machineconfignode.UpdateSteps;
import io.upshift.status.render.Details;
import io.upshift.status.snapshot.ResourceFiles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MachineConfigNodes as the status assessment reads them: never over the annotations, in their
 * place when a node has none.
 */
class MachineConfigNodeStatusTest {
    static final String OLD = "rendered-worker-old", NEW = "rendered-worker-new";
    static final List<Transition> DRAINING =
            List.of(
                    UpdateSteps.needsUpdate("node-a"),
                    UpdateSteps.prepared(DisruptionPlan.REBOOT),
                    UpdateSteps.cordoned(),
                    UpdateSteps.draining("drain-" + NEW, "uncordon-" + OLD));
    static final List<Transition> REBOOTING =
            concat(
                    DRAINING,
                    UpdateSteps.drained("drain-" + NEW),
                    UpdateSteps.applying(true, false),
                    UpdateSteps.applied(true, false),
                    UpdateSteps.rebooting(),
                    UpdateSteps.succeeded("node-a"));

    static List<Transition> concat(List<Transition> a, Transition... more) {
        List<Transition> out = new ArrayList<>(a);
        out.addAll(List.of(more));
        return out;
    }

    /**
     * The node's MachineConfigNode as its agent leaves it after reporting {@code steps}, at {@code
     * at}.
     */
    static MachineConfigNode reported(
            String current, String desired, List<Transition> steps, Instant at) {
        MachineConfigNode mcn =
                new MachineConfigNodeBuilder()
                        .withNewMetadata()
                        .withName("node-a")
                        .withGeneration(2L)
                        .endMetadata()
                        .withNewSpec()
                        .withNewNode("node-a")
                        .withNewPool("worker")
                        .withNewConfigVersion(desired)
                        .endSpec()
                        .build();
        mcn.setStatus(NodeStatus.next(mcn, steps, current, desired, at));
        return mcn;
    }

    /**
     * What {@code upshift status --details=all} shows with the node annotated as given, or bare
     * with its MachineConfigNode.
     */
    static String render(
            String current,
            String desired,
            String state,
            Map<String, String> more,
            boolean cordoned,
            MachineConfigNode mcn) {
        TestCluster c =
                new TestCluster()
                        .operator("etcd", TestCluster.NEW)
                        .operator("network", TestCluster.NEW);
        c.node("node-a", current, desired, state, more);
        if (cordoned) c.lastNode().getSpec().setUnschedulable(true);
        if (mcn != null) {
            c.lastNode().getMetadata().setAnnotations(Map.of());
            c.machineConfigNodes.add(mcn);
        }
        return c.render(Details.all);
    }

    @Test
    void aNodeWithoutAnnotationsIsReadThroughItsMachineConfigNodeAsItsAnnotationsWouldRead() {
        Instant at = NOW.minus(Duration.ofMinutes(1));
        assertThat(
                        render(
                                "old",
                                "new",
                                "Working",
                                Map.of(
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "uncordon-" + OLD),
                                true,
                                reported(OLD, NEW, DRAINING, at)))
                .isEqualTo(
                        render(
                                "old",
                                "new",
                                "Working",
                                Map.of(
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "uncordon-" + OLD),
                                true,
                                null))
                .containsPattern("node-a\\s+Progressing\\s+Draining\\s+1\\.0\\.0");
        assertThat(
                        render(
                                "old",
                                "new",
                                "Rebooting",
                                Map.of(
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "drain-" + NEW),
                                true,
                                reported(OLD, NEW, REBOOTING, at)))
                .isEqualTo(
                        render(
                                "old",
                                "new",
                                "Rebooting",
                                Map.of(
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "drain-" + NEW),
                                true,
                                null))
                .containsPattern("node-a\\s+Progressing\\s+Rebooting\\s+1\\.0\\.0");
        MachineConfigNode updated =
                reported(
                        NEW,
                        NEW,
                        concat(
                                REBOOTING,
                                UpdateSteps.rebooted(),
                                UpdateSteps.resumed(NEW),
                                UpdateSteps.uncordoned()),
                        at);
        updated.setStatus(
                NodeStatus.next(updated, List.of(UpdateSteps.updated("node-a")), NEW, NEW, at));
        assertThat(render("new", "new", "Done", Map.of(), false, updated))
                .isEqualTo(render("new", "new", "Done", Map.of(), false, null))
                .containsPattern("node-a\\s+Completed\\s+Updated\\s+1\\.1\\.0");
        String reason =
                "failed to drain node: node-a after 1 hour. Please see machine-config-controller"
                        + " logs for more information";
        assertThat(
                        render(
                                "old",
                                "new",
                                "Degraded",
                                Map.of(
                                        MCO + "reason",
                                        reason,
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "uncordon-" + OLD),
                                true,
                                reported(
                                        OLD,
                                        NEW,
                                        concat(
                                                DRAINING,
                                                UpdateSteps.drainFailed(
                                                        reason, "drain-" + NEW, "uncordon-" + OLD),
                                                UpdateSteps.degraded("node-a", reason)),
                                        at)))
                .isEqualTo(
                        render(
                                "old",
                                "new",
                                "Degraded",
                                Map.of(
                                        MCO + "reason",
                                        reason,
                                        MCO + "desiredDrain",
                                        "drain-" + NEW,
                                        MCO + "lastAppliedDrain",
                                        "uncordon-" + OLD),
                                true,
                                null))
                .containsPattern(
                        "node-a\\s+Degraded\\s+Draining\\s+1\\.0\\.0\\s+\\?\\s+failed to drain"
                                + " node: node-a after 1 hour");
    }

    @Test
    void annotationsWinOverAMachineConfigNodeThatSaysOtherwise() {
        MachineConfigNode stale = reported(NEW, NEW, List.of(UpdateSteps.updated("node-a")), NOW);
        TestCluster with =
                new TestCluster()
                        .operator("etcd", TestCluster.NEW)
                        .operator("network", TestCluster.NEW)
                        .node("node-a", "old", "new", "Rebooting", Map.of());
        with.machineConfigNodes.add(stale);
        TestCluster without =
                new TestCluster()
                        .operator("etcd", TestCluster.NEW)
                        .operator("network", TestCluster.NEW)
                        .node("node-a", "old", "new", "Rebooting", Map.of());
        assertThat(with.render(Details.all))
                .isEqualTo(without.render(Details.all))
                .containsPattern("node-a\\s+Progressing\\s+Rebooting");
    }

    @Test
    void aDrainItsMachineConfigNodeReportsFailingRaisesTheDrainInsightAfterFiveMinutes() {
        String error =
                "error when evicting pods/\"web-1\" -n \"shop\": Cannot evict pod as it would"
                        + " violate the pod's disruption budget.";
        Map<String, String> draining =
                Map.of(
                        MCO + "desiredDrain",
                        "drain-" + NEW,
                        MCO + "lastAppliedDrain",
                        "uncordon-" + OLD);
        for (Duration ago : List.of(Duration.ofMinutes(7), Duration.ofMinutes(3))) {
            TestCluster c =
                    new TestCluster()
                            .operator("etcd", TestCluster.NEW)
                            .operator("network", TestCluster.NEW)
                            .node("node-a", "old", "new", "Working", draining);
            // cordoned when the drain began; the failure reported since
            MachineConfigNode mcn = reported(OLD, NEW, DRAINING, NOW.minus(ago));
            mcn.setStatus(
                    NodeStatus.next(
                            mcn,
                            concat(
                                    DRAINING,
                                    UpdateSteps.drainFailed(
                                            error, "drain-" + NEW, "uncordon-" + OLD)),
                            OLD,
                            NEW,
                            NOW.minusSeconds(30)));
            c.machineConfigNodes.add(mcn);
            List<HealthInsight> health = UpdateAssessment.health(c.assess());
            if (ago.toMinutes() < 5) {
                assertThat(health).isEmpty();
                continue;
            }
            assertThat(health)
                    .singleElement()
                    .satisfies(
                            h -> {
                                assertThat(h.impact().summary())
                                        .isEqualTo("Node node-a cannot drain: " + error);
                                assertThat(h.startedAt()).isEqualTo(NOW.minus(ago).toString());
                            });
        }
    }

    @Test
    void snapshotsMayHoldMachineConfigNodes() {
        String dump =
                """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: machineconfiguration.openshift.io/v1
                  kind: MachineConfigNode
                  metadata: {name: node-a}
                  spec: {node: {name: node-a}, pool: {name: worker}, configVersion: {desired: rendered-worker-new}}
                """;
        assertThat(ResourceFiles.read("mcn.yaml", dump.getBytes(StandardCharsets.UTF_8)))
                .singleElement()
                .isInstanceOfSatisfying(
                        MachineConfigNode.class,
                        m ->
                                assertThat(m.getSpec().getConfigVersion().getDesired())
                                        .isEqualTo("rendered-worker-new"));
    }
}
