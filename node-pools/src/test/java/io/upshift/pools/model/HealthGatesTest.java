package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pool's health gates on pods: which pod holds it, and bad selectors named. */
class HealthGatesTest {
    static MachineConfigPool pool(String gates) {
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName("worker")
                .addToAnnotations(HealthGates.PODS, gates)
                .endMetadata()
                .build();
    }

    static Pod pod(String ns, String name, String app, String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(ns)
                .withName(name)
                .addToLabels("app", app)
                .endMetadata()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    @Test
    void theFirstGateMatchingAPodNotFinishedHolds() {
        HealthGates gates = HealthGates.of(pool("app=backup; app=reindex"));
        RolloutHold hold =
                gates.hold(
                        List.of(
                                pod("b", "reindex-1", "reindex", "Pending"),
                                pod("z", "backup-2", "backup", "Running"),
                                pod("a", "backup-1", "backup", "Succeeded")));
        assertThat(hold.reason()).isEqualTo("HealthGate");
        assertThat(hold.until()).isNull();
        assertThat(hold.message())
                .startsWith("Pod z/backup-2 matches the health gate \"app=backup\"");
        assertThat(gates.hold(List.of(pod("a", "backup-1", "backup", "Failed")))).isNull();
    }

    @Test
    void aSelectorThatDoesNotParseIsNamed() {
        assertThatThrownBy(() -> HealthGates.of(pool("app=backup; app in backup")))
                .hasMessageStartingWith(
                        "annotation upshift.io/health-gate-pods \"app=backup; app in backup\": not"
                                + " a label selector");
        assertThat(HealthGates.of(pool(" "))).isNull();
    }
}
