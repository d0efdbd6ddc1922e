package io.upshift.rehearsal.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void runLevelsAndNodesAreLearnedFromTheLastUpdate() {
        Durations d = Durations.learn(Facts.of(6), LevelCluster.LEVELS);

        assertThat(d.learnedRunLevels()).isTrue();
        assertThat(d.runLevels().get("20")).isEqualTo(Duration.ofMinutes(7));
        assertThat(d.runLevelBasis())
                .isEqualTo(
                        "learned: the run-level times of the update to 4.18.1 (8 run-levels"
                                + " timed)");
        assertThat(d.learnedNodes()).isTrue();
        // masters took 330, 367 and 404 s
        assertThat(d.nodes().get("master")).isEqualTo(Duration.ofSeconds(367));
        assertThat(d.nodeBasis()).startsWith("learned: the mean of 9 nodes");
    }

    @Test
    void aRunLevelTheLastUpdateDidNotHaveTakesTheMeanOfItsKind() {
        List<RunLevelTimes.Level> levels = new ArrayList<>(LevelCluster.LEVELS);
        levels.add(new RunLevelTimes.Level("90", 2, List.of("olm"), null, null));
        Durations d = Durations.learn(Facts.of(6), levels);
        // the mean of the seven run-levels with operators: 240 420 300 180 600 360 150
        assertThat(d.runLevels().get("90")).isEqualTo(Duration.ofMillis(321_429));
    }

    @Test
    void withNothingLearnedTheDefaultsAreNamedAsDefaults() {
        ClusterFacts facts =
                Facts.of(
                        6,
                        o -> {
                            if (o instanceof ClusterVersion cv) {
                                cv.getMetadata().setAnnotations(null);
                                cv.getStatus()
                                        .setHistory(List.of(cv.getStatus().getHistory().get(1)));
                            }
                            if (o instanceof Node n) {
                                n.getMetadata()
                                        .getAnnotations()
                                        .remove(NodeAnnotations.UPDATE_DONE_AT);
                            }
                            return o;
                        });
        Durations d = Durations.learn(facts, LevelCluster.LEVELS);

        assertThat(d.learnedRunLevels()).isFalse();
        assertThat(d.runLevelBasis())
                .isEqualTo(
                        "default: 60.0 min, oc adm upgrade status's baseline, shared among the"
                                + " run-levels with ClusterOperators; 10.0 s for each without");
        assertThat(d.runLevels().get("00")).isEqualTo(Duration.ofSeconds(10));
        // (3600 - 10) / 7
        assertThat(d.runLevels().get("10")).isEqualTo(Duration.ofMillis(512_857));
        assertThat(d.learnedNodes()).isFalse();
        assertThat(d.nodes().get("worker")).isEqualTo(Durations.DEFAULT_NODE);
        assertThat(d.nodeBasis()).isEqualTo("default: 10.0 min a node (no node update measured)");
    }
}
