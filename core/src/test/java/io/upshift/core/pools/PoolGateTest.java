package io.upshift.core.pools;

import io.upshift.core.conditions.Conditions;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolGateTest {

    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    static PoolProgress pool(String name, boolean paused, String... currents) {
        List<PoolNode> nodes = java.util.Arrays.stream(currents).map(c -> PoolProgressTest.node(name + c, c, c, "Done", "")).toList();
        return new PoolProgress(name, "rendered-" + name + "-new", nodes, paused, null, null, null);
    }

    @Test
    void aPausedPoolOnAnOlderMinorBlocksTheNextMinorAndNamesItself() {
        PoolProgress master = pool("master", false, "rendered-master-new", "rendered-master-new");
        PoolProgress worker = pool("worker", true, "rendered-worker-old", "rendered-worker-old", "rendered-worker-new");
        ClusterOperatorStatus s = PoolGate.status("4.19.2", null, List.of(
                new PoolGate.Pool("master", master, 0, true), new PoolGate.Pool("worker", worker, 2, false)), NOW);
        var upgradeable = Conditions.CLUSTER.find(s.getConditions(), "Upgradeable");
        assertThat(upgradeable.getStatus()).isEqualTo("False");
        assertThat(upgradeable.getReason()).isEqualTo("PoolBehindControlPlane");
        assertThat(upgradeable.getMessage()).isEqualTo("One or more machine config pools are not ready for the next minor update: "
                + "pool worker has 2 of 3 nodes on a minor older than 4.19, paused");
        assertThat(s.getVersions().get(0).getVersion()).isEqualTo("4.19.2"); // the control plane pool is done
    }

    @Test
    void updatingPoolsBlockAndTheVersionWaitsForTheControlPlanePool() {
        PoolProgress master = pool("master", false, "rendered-master-new", "rendered-master-old");
        ClusterOperatorStatus before = new ClusterOperatorStatus();
        before.setVersions(List.of(new io.fabric8.openshift.api.model.config.v1.OperandVersion("operator", "4.19.1")));
        ClusterOperatorStatus s = PoolGate.status("4.19.2", before, List.of(new PoolGate.Pool("master", master, 0, false)), NOW);
        assertThat(Conditions.CLUSTER.find(s.getConditions(), "Upgradeable").getMessage()).endsWith("pool master is updating (1 of 2 nodes updated)");
        assertThat(Conditions.CLUSTER.find(s.getConditions(), "Progressing").getStatus()).isEqualTo("True");
        assertThat(s.getVersions().get(0).getVersion()).isEqualTo("4.19.1");

        PoolProgress done = pool("master", false, "rendered-master-new");
        ClusterOperatorStatus after = PoolGate.status("4.19.2", s, List.of(new PoolGate.Pool("master", done, 0, true)), NOW);
        assertThat(Conditions.CLUSTER.find(after.getConditions(), "Upgradeable").getStatus()).isEqualTo("True");
        assertThat(after.getVersions().get(0).getVersion()).isEqualTo("4.19.2");
    }

    @Test
    void olderMinorComparesMajorAndMinorOnly() {
        assertThat(PoolGate.olderMinor("4.18.9", "4.19.0")).isTrue();
        assertThat(PoolGate.olderMinor("4.19.0", "4.19.3")).isFalse();
        assertThat(PoolGate.olderMinor("", "4.19.3")).isFalse();
    }
}
