package io.upshift.rehearsal.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolConditionBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.SoakTime;
import io.upshift.rehearsal.synthetic.LevelCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The waits of the rollout controls laid over a timeline, and the gates that would hold the update
 * now. The cluster is read on a Friday at 10:00 UTC.
 */
class TimelineWaitsTest {
    private static final Target TARGET = Facts.target(LevelCluster.TO);

    /** The level cluster (no stuck budget) with {@code annotations} on the object {@code kind}. */
    private static ClusterFacts facts(Class<?> kind, String name, Map<String, String> annotations) {
        UnaryOperator<HasMetadata> change =
                o -> {
                    if (o instanceof PodDisruptionBudget p
                            && p.getMetadata().getName().equals("db")) return null;
                    if (kind.isInstance(o) && o.getMetadata().getName().equals(name)) {
                        Map<String, String> a =
                                new HashMap<>(
                                        o.getMetadata().getAnnotations() == null
                                                ? Map.of()
                                                : o.getMetadata().getAnnotations());
                        a.putAll(annotations);
                        o.getMetadata().setAnnotations(a);
                    }
                    return o;
                };
        return Facts.of(6, change);
    }

    private static Timeline planned(ClusterFacts facts) {
        Timeline plan =
                TimelinePlan.of(facts, TARGET, Durations.learn(facts, TARGET.levels()), List.of());
        return TimelineWaits.apply(plan, facts, TARGET, Facts.AT);
    }

    @Test
    void theClusterVersionsWindowMovesTheWholeUpdateByItsWait() {
        ClusterFacts plain = facts(ClusterVersion.class, "version", Map.of());
        ClusterFacts windowed =
                facts(
                        ClusterVersion.class,
                        "version",
                        Map.of(MaintenanceWindow.ANNOTATION, "Sat 02:00-06:00"));
        Timeline before = planned(plain), after = planned(windowed);
        Duration wait = Duration.ofHours(16);

        assertThat(before.waits()).isEmpty();
        assertThat(after.end()).isEqualTo(before.end().plus(wait));
        assertThat(after.controlPlaneEnd()).isEqualTo(before.controlPlaneEnd().plus(wait));
        assertThat(after.runLevels().get(0))
                .isEqualTo(
                        new Timeline.Bar(
                                TimelineWaits.WINDOW_BAR,
                                Duration.ZERO,
                                wait,
                                "waits for the update's maintenance window"));
        assertThat(after.runLevels().get(1).start())
                .isEqualTo(before.runLevels().get(0).start().plus(wait));
        assertThat(after.waits())
                .containsExactly(
                        "16h00m before the update starts: the update to "
                                + LevelCluster.TO
                                + " waits for the maintenance window \"Sat 02:00-06:00\""
                                + " (upshift.io/maintenance-window on ClusterVersion version),"
                                + " which opens at 2026-11-21T02:00:00Z");

        assertThat(Holds.of(windowed, TARGET, Facts.AT))
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.kind()).isEqualTo(Blocker.Kind.HOLDS);
                            assertThat(b.source()).isEqualTo("cluster-version controller");
                            assertThat(b.reason()).isEqualTo("MaintenanceWindow");
                            assertThat(b.message()).startsWith("The update to ");
                        });
        assertThat(Holds.of(plain, TARGET, Facts.AT)).isEmpty();
    }

    @Test
    void aPoolsSoakSpacesItsNodesAndItsWindowHoldsThemAndBothAreNamed() {
        ClusterFacts plain = facts(MachineConfigPool.class, "worker", Map.of());
        ClusterFacts soaked =
                facts(MachineConfigPool.class, "worker", Map.of(SoakTime.ANNOTATION, "10m"));
        Timeline before = planned(plain), after = planned(soaked);
        Timeline.Pool workers = after.pools().get(1);
        // two at a time: the second pair starts 10 minutes after the first pair is done
        List<Timeline.Bar> bars = workers.nodes();
        assertThat(bars.get(2).start()).isEqualTo(bars.get(1).end().plus(Duration.ofMinutes(10)));
        assertThat(after.end()).isGreaterThan(before.end().plus(Duration.ofMinutes(19)));
        assertThat(after.waits())
                .singleElement()
                .asString()
                .startsWith("pool worker: ")
                .endsWith(" of soak time 10m (upshift.io/soak-time)");

        ClusterFacts windowed =
                facts(
                        MachineConfigPool.class,
                        "worker",
                        Map.of(MaintenanceWindow.ANNOTATION, "Sat 02:00-06:00"));
        Timeline held = planned(windowed);
        assertThat(held.pools().get(1).nodes().get(0).start().toHours()).isEqualTo(16);
        assertThat(held.waits())
                .singleElement()
                .asString()
                .contains("for its maintenance window \"Sat 02:00-06:00\"");
        assertThat(Holds.of(windowed, TARGET, Facts.AT))
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.source()).isEqualTo("pool controller");
                            assertThat(b.place().pool()).isEqualTo("worker");
                            assertThat(b.message())
                                    .isEqualTo(
                                            "Its nodes would wait for the maintenance window \"Sat"
                                                + " 02:00-06:00\" (upshift.io/maintenance-window),"
                                                + " which opens at 2026-11-21T02:00:00Z");
                        });
    }

    @Test
    void aHoldThePoolControllerReportsIsNamedAsItSaysIt() {
        ClusterFacts facts = facts(MachineConfigPool.class, "worker", Map.of());
        MachineConfigPool worker = facts.state().pools().get(1);
        MachineConfigPoolStatus status =
                worker.getStatus() == null ? new MachineConfigPoolStatus() : worker.getStatus();
        status.setConditions(
                List.of(
                        new MachineConfigPoolConditionBuilder()
                                .withType("RolloutHeld")
                                .withStatus("True")
                                .withReason("HealthGate")
                                .withLastTransitionTime("2026-11-20T09:30:00Z")
                                .withMessage(
                                        "Pod shop/backup-0 matches the health gate \"app=backup\""
                                                + " (upshift.io/health-gate-pods): no new node"
                                                + " starts while it runs")
                                .build()));
        worker.setStatus(status);
        assertThat(Holds.of(facts, TARGET, Facts.AT))
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.reason()).isEqualTo("RolloutHeld");
                            assertThat(b.message())
                                    .startsWith(
                                            "HealthGate since 2026-11-20T09:30:00Z: Pod"
                                                    + " shop/backup-0");
                        });
    }
}
