package io.upshift.rehearsal.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.rehearsal.synthetic.LevelCluster;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class StallsTest {

    @Test
    void aBudgetThatAllowsNoDisruptionNamesItselfTheNodesAndThePodsInTheAgentsWords() {
        LevelCluster c = new LevelCluster(12, Facts.FROM_IMAGE, Facts.TO_IMAGE, Facts.AT);
        List<Blocker> stalls = Stalls.of(Facts.of(12), Facts.target(LevelCluster.TO));

        assertThat(stalls).hasSize(1);
        Blocker b = stalls.get(0);
        assertThat(b.kind()).isEqualTo(Blocker.Kind.STALLS);
        assertThat(b.reason()).isEqualTo("DrainBlocked");
        assertThat(b.place()).isEqualTo(Blocker.Place.nodes("worker", c.databaseNodes()));
        assertThat(b.message())
                .startsWith("PodDisruptionBudget shop/db allows no disruption (minAvailable 2)")
                .contains(
                        "node worker-03 stays Draining: PodDisruptionBudget shop/db does not allow"
                                + " evicting pod shop/db-0",
                        "node worker-07 stays Draining: PodDisruptionBudget shop/db does not allow"
                                + " evicting pod shop/db-1",
                        "failed to drain node: worker-03 after 1 hour.");
    }

    @Test
    void aBudgetTheDisruptionControllerAllowsOneIsNotABlocker() {
        List<Blocker> stalls =
                Stalls.of(
                        Facts.of(
                                12,
                                o -> {
                                    if (o instanceof PodDisruptionBudget pdb
                                            && pdb.getMetadata().getName().equals("db")) {
                                        pdb.setStatus(
                                                new io.fabric8.kubernetes.api.model.policy.v1
                                                                .PodDisruptionBudgetStatusBuilder()
                                                        .withDisruptionsAllowed(1)
                                                        .withCurrentHealthy(3)
                                                        .withDesiredHealthy(2)
                                                        .withExpectedPods(3)
                                                        .build());
                                    }
                                    return o;
                                }),
                        Facts.target(LevelCluster.TO));
        assertThat(stalls).isEmpty();
    }

    @Test
    void aPausedPoolANodeNotReadyAndADegradedOperatorAtItsRunLevel() {
        ClusterFacts facts =
                Facts.of(
                        6,
                        o -> {
                            if (o instanceof MachineConfigPool p
                                    && p.getMetadata().getName().equals("worker"))
                                p.getSpec().setPaused(true);
                            if (o instanceof Node n && n.getMetadata().getName().equals("master-1"))
                                n.getStatus().getConditions().get(0).setStatus("Unknown");
                            if (o instanceof ClusterOperator co
                                    && co.getMetadata().getName().equals("ingress"))
                                co.getStatus().getConditions().stream()
                                        .filter(c -> c.getType().equals("Degraded"))
                                        .forEach(c -> c.setStatus("True"));
                            return o;
                        });
        List<Blocker> stalls = Stalls.of(facts, Facts.target(LevelCluster.TO));

        assertThat(stalls)
                .extracting(Blocker::reason, Blocker::place)
                .containsExactlyInAnyOrder(
                        Tuple.tuple("ClusterOperatorDegraded", Blocker.Place.runLevel("50")),
                        Tuple.tuple("Paused", Blocker.Place.pool("worker")),
                        Tuple.tuple(
                                "NodeNotReady",
                                Blocker.Place.nodes("master", List.of("master-1"))));
        assertThat(stalls)
                .anySatisfy(
                        b ->
                                assertThat(b.message())
                                        .isEqualTo("Cluster operator ingress is degraded"));
    }

    @Test
    void noNodeStallsWhenTheReleaseRollsNoNodes() {
        Target noMachineConfig =
                new Target(
                        LevelCluster.TO,
                        Facts.TO_IMAGE,
                        "",
                        LevelCluster.LEVELS.subList(0, 3),
                        "its payload",
                        Target.Verification.verified(""));
        assertThat(Stalls.of(Facts.of(12), noMachineConfig)).isEmpty();
    }

    static HasMetadata same(HasMetadata o) {
        return o;
    }
}
