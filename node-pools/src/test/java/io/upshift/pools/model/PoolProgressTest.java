package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolProgressTest {

    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    static PoolNode node(String name, String current, String desired, String state, String reason) {
        return new PoolNode(name, current, desired, state, reason, true, "", NOW, false);
    }

    static MachineConfigPoolCondition condition(MachineConfigPoolStatus s, String type) {
        return s.getConditions().stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void countsAndConditionsFollowTheReference() {
        PoolProgress p =
                new PoolProgress(
                        "worker",
                        "rendered-worker-new",
                        List.of(
                                node("a", "rendered-worker-new", "rendered-worker-new", "Done", ""),
                                node(
                                        "b",
                                        "rendered-worker-old",
                                        "rendered-worker-new",
                                        "Working",
                                        ""),
                                node(
                                        "c",
                                        "rendered-worker-old",
                                        "rendered-worker-new",
                                        "Degraded",
                                        "failed to drain node: c after 1 hour"),
                                node(
                                        "d",
                                        "rendered-worker-old",
                                        "rendered-worker-old",
                                        "Done",
                                        "")),
                        false,
                        null,
                        null,
                        null);
        MachineConfigPoolStatus s = p.status(null, 3, NOW);
        assertThat(
                        List.of(
                                s.getMachineCount(),
                                s.getUpdatedMachineCount(),
                                s.getReadyMachineCount(),
                                s.getUnavailableMachineCount(),
                                s.getDegradedMachineCount()))
                .containsExactly(4, 1, 1, 1, 1);
        assertThat(condition(s, "Updating").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Updating").getMessage())
                .isEqualTo("All nodes are updating to MachineConfig rendered-worker-new");
        assertThat(condition(s, "NodeDegraded").getReason())
                .isEqualTo("1 nodes are reporting degraded status on sync");
        assertThat(condition(s, "NodeDegraded").getMessage())
                .isEqualTo("Node c is reporting: \"failed to drain node: c after 1 hour\"");
        assertThat(condition(s, "Degraded").getStatus()).isEqualTo("True");
        assertThat(s.getObservedGeneration()).isEqualTo(3L);

        PoolProgress done =
                new PoolProgress(
                        "worker",
                        "rendered-worker-new",
                        List.of(
                                node(
                                        "a",
                                        "rendered-worker-new",
                                        "rendered-worker-new",
                                        "Done",
                                        "")),
                        false,
                        null,
                        null,
                        null);
        MachineConfigPoolStatus later = done.status(s, 3, NOW.plusSeconds(60));
        assertThat(condition(later, "Updated").getMessage())
                .isEqualTo("All nodes are updated with MachineConfig rendered-worker-new");
        assertThat(condition(later, "Updated").getLastTransitionTime())
                .isEqualTo("2026-11-22T10:01:00Z");
        assertThat(condition(later, "RenderDegraded").getLastTransitionTime())
                .isEqualTo("2026-11-22T10:00:00Z"); // unchanged: kept
    }

    @Test
    void pausedInvalidAndWaitingPools() {
        List<PoolNode> outdated =
                List.of(node("a", "rendered-worker-old", "rendered-worker-old", "Done", ""));
        MachineConfigPoolStatus paused =
                new PoolProgress("worker", "rendered-worker-new", outdated, true, null, null, null)
                        .status(null, 1, NOW);
        assertThat(condition(paused, "Updating").getStatus()).isEqualTo("False");
        assertThat(condition(paused, "Updating").getMessage())
                .isEqualTo("Pool is paused; will not update to MachineConfig rendered-worker-new");

        MachineConfigPoolStatus invalid =
                new PoolProgress(
                                "worker",
                                "rendered-worker-new",
                                outdated,
                                false,
                                null,
                                "spec.maxUnavailable \"150%\" is neither a number of nodes nor a"
                                        + " percentage (0%-100%)",
                                null)
                        .status(null, 1, NOW);
        assertThat(condition(invalid, "Degraded").getStatus()).isEqualTo("True");
        assertThat(condition(invalid, "Degraded").getMessage())
                .startsWith("spec.maxUnavailable \"150%\"");

        MachineConfigPoolStatus render =
                new PoolProgress(
                                "worker",
                                "",
                                outdated,
                                false,
                                "MachineConfig 99-x: file path \"a\" is not absolute",
                                null,
                                null)
                        .status(null, 1, NOW);
        assertThat(condition(render, "RenderDegraded").getMessage())
                .isEqualTo(
                        "Failed to render configuration for pool worker: MachineConfig 99-x: file"
                                + " path \"a\" is not absolute");
        assertThat(condition(render, "Updated").getStatus()).isEqualTo("False");

        MachineConfigPoolStatus waiting =
                new PoolProgress(
                                "worker",
                                "rendered-worker-new",
                                outdated,
                                false,
                                null,
                                null,
                                new RolloutHold(
                                        RolloutHold.WINDOW, "Waiting for maintenance window", NOW))
                        .status(null, 1, NOW);
        assertThat(condition(waiting, "Updating").getStatus()).isEqualTo("False");
        assertThat(condition(waiting, "Updating").getMessage())
                .isEqualTo("Waiting for maintenance window");
        assertThat(condition(waiting, "RolloutHeld").getStatus()).isEqualTo("True");
        assertThat(condition(waiting, "RolloutHeld").getReason()).isEqualTo("MaintenanceWindow");
    }
}
