package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.model.DrainRules;
import io.upshift.pools.model.HealthGates;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.SoakTime;
import io.upshift.testkit.AcceleratedClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pools' rollout controls (issue 39) with the real pool controller and node agents on the
 * embedded API server, at accelerated time: what is asserted is the simulated clock's record of the
 * rollout (the agents' update times, the pool's events), never the wall's.
 */
@Tag("e2e")
class RolloutControlsTest {
    @TempDir Path hosts;

    static Instant at(PoolHarness h, Node n, String annotation) {
        return Instant.parse(h.annotation(n.getMetadata().getName(), annotation));
    }

    static int count(List<Event> events, String reason) {
        return events.stream()
                .filter(e -> reason.equals(e.getReason()))
                .mapToInt(Event::getCount)
                .sum();
    }

    @Test
    void aSoakOfThirtySecondsIsKeptBetweenNodes() {
        // 20 times the wall's pace: a soak of 30 s is 1.5 s of the wall, the resync (0.3 s) 6 s
        AcceleratedClock clock = new AcceleratedClock(Instant.parse("2026-11-22T10:00:00Z"), 20);
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            h.client
                    .resources(MachineConfigPool.class)
                    .withName("worker")
                    .edit(
                            p -> {
                                p.getMetadata().getAnnotations().put(SoakTime.ANNOTATION, "30s");
                                return p;
                            });
            h.config("00-worker", "worker", "one", "os@sha256:1");
            for (int i = 0; i < 3; i++) h.node("worker-" + i, "worker", "zone-a", 10 - i);
            for (int i = 0; i < 3; i++) h.startAgent("worker-" + i, clock);
            h.startController("4.19.0", clock);
            await("every node on the first config")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));

            List<Node> nodes =
                    h.client.nodes().list().getItems().stream()
                            .sorted(
                                    Comparator.comparing(
                                            n -> at(h, n, NodeAnnotations.UPDATE_STARTED_AT)))
                            .toList();
            // the oldest first, as without a soak
            assertThat(nodes)
                    .extracting(n -> n.getMetadata().getName())
                    .containsExactly("worker-0", "worker-1", "worker-2");
            for (int i = 1; i < nodes.size(); i++) {
                Instant previousDone = at(h, nodes.get(i - 1), NodeAnnotations.UPDATE_DONE_AT);
                Instant started = at(h, nodes.get(i), NodeAnnotations.UPDATE_STARTED_AT);
                assertThat(Duration.between(previousDone, started))
                        .as(
                                "%s started after %s was done",
                                nodes.get(i).getMetadata().getName(),
                                nodes.get(i - 1).getMetadata().getName())
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(30));
            }

            // the pool said so, once per hold, and says nothing holds it now
            await("the pool's status after the rollout")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.condition("worker", "RolloutHeld") != null
                                            && "False"
                                                    .equals(
                                                            h.condition("worker", "RolloutHeld")
                                                                    .getStatus())
                                            && h.conditionTrue("worker", "Updated"));
            List<Event> events =
                    h.client.v1().events().inNamespace("default").list().getItems().stream()
                            .filter(
                                    e ->
                                            "MachineConfigPool"
                                                    .equals(e.getInvolvedObject().getKind()))
                            .toList();
            // two holds (after worker-0 and after worker-1), each said once (repeats within ten
            // minutes count on one Event)
            assertThat(count(events, "RolloutHeld")).isEqualTo(2);
            assertThat(count(events, "RolloutResumed")).isEqualTo(2);
            assertThat(events)
                    .filteredOn(e -> "RolloutHeld".equals(e.getReason()))
                    .allSatisfy(e -> assertThat(e.getMessage()).startsWith("Soaking node worker-"));
        }
    }

    @Test
    void aPodMatchedByASkipRuleIsLeftRunningWhileItsNodeUpdates() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            annotate(h, "worker", DrainRules.SKIP, "app=cache");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            Pod cache = h.createPod("cache-0", "worker-0", "cache", false);
            h.createPod("web-0", "worker-0", "web", false);
            h.startAgents();
            h.startController("4.19.0");
            await("the node on the first config")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));

            String target = h.pool("worker").getSpec().getConfiguration().getName();
            // the node was drained (its first config reboots it) ...
            assertThat(h.annotation("worker-0", NodeAnnotations.LAST_APPLIED_DRAIN))
                    .isEqualTo("uncordon-" + target);
            assertThat(h.machines.get("worker-0").osImage()).isEqualTo("os@sha256:1");
            // ... the web pod evicted, the cache pod the very same, never asked to go
            assertThat(h.client.pods().inNamespace("shop").withName("web-0").get()).isNull();
            Pod after = h.client.pods().inNamespace("shop").withName("cache-0").get();
            assertThat(after).isNotNull();
            assertThat(after.getMetadata().getUid()).isEqualTo(cache.getMetadata().getUid());
            assertThat(after.getMetadata().getDeletionTimestamp()).isNull();
        }
    }

    @Test
    void aRunningPodMatchedByAHealthGateHoldsEveryNodeUntilItEnds() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            annotate(h, "worker", HealthGates.PODS, "app=backup; app=reindex");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.node("worker-1", "worker", "zone-a", 9);
            h.createPod("backup-0", "worker-1", "backup", false);
            h.startAgents();
            h.startController("4.19.0");

            await("the pool held by the gate")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.conditionTrue("worker", "RolloutHeld")
                                            && "HealthGate"
                                                    .equals(
                                                            h.condition("worker", "RolloutHeld")
                                                                    .getReason()));
            assertThat(h.condition("worker", "RolloutHeld").getMessage())
                    .isEqualTo(
                            "Pod shop/backup-0 matches the health gate \"app=backup\""
                                    + " (upshift.io/health-gate-pods): no new node starts while it"
                                    + " runs");
            // passes that saw the gate go by: still no node told
            long seen = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.controller.passes() > seen + 3);
            assertThat(h.annotation("worker-0", NodeAnnotations.DESIRED_CONFIG)).isNull();
            assertThat(h.annotation("worker-1", NodeAnnotations.DESIRED_CONFIG)).isNull();

            h.client.pods().inNamespace("shop").withName("backup-0").withGracePeriod(0).delete();
            await("every node on the first config once the pod is gone")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            await("the hold lifted")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> "False".equals(h.condition("worker", "RolloutHeld").getStatus()));
        }
    }

    static void annotate(PoolHarness h, String pool, String key, String value) {
        h.client
                .resources(MachineConfigPool.class)
                .withName(pool)
                .edit(
                        p -> {
                            p.getMetadata().getAnnotations().put(key, value);
                            return p;
                        });
    }
}
