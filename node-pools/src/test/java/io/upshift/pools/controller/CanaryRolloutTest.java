package io.upshift.pools.controller;

import static io.upshift.pools.controller.RolloutControlsTest.annotate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.Canaries;
import io.upshift.pools.model.HealthGates;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.SoakTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a pool whose first node is a canary pauses itself when a health gate fires during the
 * canary's soak, and takes the canary back to the config the rest of the pool runs when asked; the
 * real pool controller and node agents on the embedded API server.
 */
@Tag("e2e")
class CanaryRolloutTest {
    @TempDir Path hosts;

    @Test
    void aCanaryPoolPausesItselfWhenAGateFiresDuringTheCanarysSoak() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 3, false); // all three at once, were it not for the canary
            h.config("00-worker", "worker", "one", "os@sha256:1");
            for (int i = 0; i < 3; i++) h.node("worker-" + i, "worker", "zone-a", 10 - i);
            h.startAgents();
            h.startController("4.19.0");
            await("every node on the first config")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();

            annotate(h, "worker", Canaries.ANNOTATION, "1");
            annotate(h, "worker", SoakTime.ANNOTATION, "1h"); // the canary soaks until the gate
            annotate(h, "worker", HealthGates.PODS, "app=backup");
            h.config("50-new", "worker", "new", "os@sha256:1");
            await("the canary done with the new config, soaking")
                    .atMost(Duration.ofMinutes(2))
                    .until(
                            () ->
                                    h.conditionTrue("worker", "RolloutHeld")
                                            && "SoakTime"
                                                    .equals(
                                                            h.condition("worker", "RolloutHeld")
                                                                    .getReason()));
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            List<String> onSecond = onConfig(h, second);
            assertThat(onSecond).containsExactly("worker-0"); // the oldest, alone

            h.createPod("backup-0", "worker-1", "backup", false); // the gate fires
            await("the pool paused by its canary")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> Boolean.TRUE.equals(h.pool("worker").getSpec().getPaused()));
            MachineConfigPool paused = h.pool("worker");
            String why = paused.getMetadata().getAnnotations().get(Canaries.HALTED);
            assertThat(why)
                    .isEqualTo(
                            "Paused by its canaries (upshift.io/canaries: 1) while nodes worker-0"
                                    + " took MachineConfig "
                                    + second
                                    + ": Pod shop/backup-0 matches the health gate \"app=backup\""
                                    + " (upshift.io/health-gate-pods): no new node starts while it"
                                    + " runs");
            await("the pool's status says so")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    "CanaryHalted"
                                            .equals(
                                                    h.condition("worker", "RolloutHeld")
                                                            .getReason()));
            assertThat(h.condition("worker", "RolloutHeld").getMessage()).startsWith(why);
            assertThat(h.controller.scrape())
                    .contains(
                            "upshift_pool_rollout_held{pool=\"worker\",reason=\"CanaryHalted\"}"
                                    + " 1\n");
            List<Event> events =
                    h.client.v1().events().inNamespace("default").list().getItems().stream()
                            .filter(e -> "CanaryHalted".equals(e.getReason()))
                            .toList();
            assertThat(events).hasSize(1);
            assertThat(events.get(0).getType()).isEqualTo("Warning");
            assertThat(events.get(0).getMessage()).isEqualTo(why);

            // the gate ends: a paused pool stays paused, its other nodes untouched
            h.client.pods().inNamespace("shop").withName("backup-0").withGracePeriod(0).delete();
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.controller.passes() > passes + 3);
            assertThat(h.annotation("worker-1", NodeAnnotations.DESIRED_CONFIG)).isEqualTo(first);
            assertThat(h.annotation("worker-2", NodeAnnotations.DESIRED_CONFIG)).isEqualTo(first);

            // the administrator takes the canary back
            annotate(h, "worker", Canaries.ROLLBACK, "true");
            await("the canary back on the first config")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> onConfig(h, first).size() == 3);
            await("the status says the canaries are back")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.condition("worker", "RolloutHeld")
                                            .getMessage()
                                            .endsWith(
                                                    ". The canaries are back on MachineConfig "
                                                            + first));

            // unpaused: the controller's marks go, and the rollout starts again with the canary
            h.client
                    .resources(MachineConfigPool.class)
                    .withName("worker")
                    .edit(
                            p -> {
                                p.getSpec().setPaused(false);
                                return p;
                            });
            await("the marks removed")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () -> {
                                Map<String, String> a =
                                        h.pool("worker").getMetadata().getAnnotations();
                                return !a.containsKey(Canaries.HALTED)
                                        && !a.containsKey(Canaries.ROLLBACK);
                            });
            await("the canary on the new config again")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> onConfig(h, second).equals(List.of("worker-0")));
        }
    }

    /** The nodes done with {@code config}, by name. */
    static List<String> onConfig(PoolHarness h, String config) {
        return h.client.nodes().list().getItems().stream()
                .filter(
                        n -> {
                            Map<String, String> a = n.getMetadata().getAnnotations();
                            return a != null
                                    && config.equals(a.get(NodeAnnotations.CURRENT_CONFIG))
                                    && config.equals(a.get(NodeAnnotations.DESIRED_CONFIG))
                                    && NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE));
                        })
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }
}
