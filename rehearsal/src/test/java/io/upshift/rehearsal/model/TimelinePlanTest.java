package io.upshift.rehearsal.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.rehearsal.synthetic.LevelCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelinePlanTest {

    /** The cluster without its stuck budget. */
    private static ClusterFacts level(int workers) {
        return Facts.of(
                workers,
                o ->
                        o instanceof PodDisruptionBudget p && p.getMetadata().getName().equals("db")
                                ? null
                                : o);
    }

    private static Timeline plan(ClusterFacts facts) {
        Target t = Facts.target(LevelCluster.TO);
        return TimelinePlan.of(facts, t, Durations.learn(facts, t.levels()), Stalls.of(facts, t));
    }

    @Test
    void runLevelsFollowEachOtherAtTheLearnedTimesAndTheMachineConfigOneWaitsForTheMasters() {
        Timeline t = plan(level(6));

        assertThat(t.runLevels())
                .extracting(Timeline.Bar::name)
                .containsExactly("00", "10", "20", "25", "30", "50", "70", "80");
        // 12 + 240 + 420 + 300 + 180 + 600 + 360 s before machine-config
        Duration mcStart = Duration.ofSeconds(2112);
        Timeline.Bar mc = t.runLevels().get(7);
        assertThat(mc.start()).isEqualTo(mcStart);
        Timeline.Pool master = t.pools().get(0);
        assertThat(master.start()).isEqualTo(mcStart);
        // three masters one at a time, each at the mean of what the masters took last time
        assertThat(master.nodes()).hasSize(3);
        assertThat(master.end()).isEqualTo(mc.end());
        assertThat(mc.end()).isGreaterThan(mcStart.plusSeconds(150));
        assertThat(t.controlPlaneEnd()).isEqualTo(mc.end());
    }

    @Test
    void workersGoTwoAtATimeByZoneThenAge() {
        Timeline t = plan(level(6));
        Timeline.Pool workers = t.pools().get(1);

        assertThat(workers.lanes()).isEqualTo(2);
        assertThat(workers.nodes())
                .extracting(Timeline.Bar::name)
                .containsExactly(
                        "worker-00",
                        "worker-03",
                        "worker-01",
                        "worker-04",
                        "worker-02",
                        "worker-05");
        List<Timeline.Bar> bars = workers.nodes();
        assertThat(bars.get(0).start()).isEqualTo(bars.get(1).start());
        assertThat(bars.get(2).start()).isEqualTo(bars.get(0).end());
        assertThat(t.end()).isEqualTo(workers.end());
        assertThat(t.lastNode()).isPresent();
    }

    @Test
    void aNodeHeldByTheBudgetNeverEndsAndNeitherDoesTheUpdate() {
        Timeline t = plan(Facts.of(12));
        Timeline.Pool workers = t.pools().get(1);

        assertThat(workers.nodes())
                .filteredOn(Timeline.Bar::stalled)
                .extracting(Timeline.Bar::name)
                .containsExactly("worker-03", "worker-07");
        assertThat(workers.end()).isNull();
        assertThat(t.end()).isNull();
        // the masters are not held: the control plane finishes
        assertThat(t.controlPlaneEnd()).isNotNull();
        // two lanes held for ever: nodes picked after both are taken never start
        assertThat(workers.note()).endsWith("never picked");
    }

    @Test
    void aPausedPoolIsLeftOutAndTheRestFinishes() {
        ClusterFacts facts =
                Facts.of(
                        6,
                        o -> {
                            if (o instanceof MachineConfigPool p
                                    && p.getMetadata().getName().equals("worker"))
                                p.getSpec().setPaused(true);
                            return o;
                        });
        Timeline t = plan(facts);
        assertThat(t.pools().get(1).start()).isNull();
        assertThat(t.pools().get(1).note()).startsWith("paused");
        assertThat(t.end()).isEqualTo(t.controlPlaneEnd());
    }
}
