package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.pools.model.NodeAnnotations;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node image its nodes cannot boot: the first node falls back to the image it ran (its host's
 * node-image check, played by the simulated host), comes back Ready and is Degraded naming the
 * image; with maxUnavailable 1 the rest of the pool is not touched; a release with a good image
 * takes every node on.
 */
@Tag("e2e")
class NodeImageFallbackTest {
    @TempDir Path hosts;

    @Test
    void anImageThatCannotBootLeavesItsFirstNodeOnThePreviousReadyAndDegradedAndTheRestUntouched()
            throws Exception {
        String good = "registry.example/node@sha256:" + "1".repeat(64);
        String bad = "registry.example/node@sha256:" + "2".repeat(64);
        String fixed = "registry.example/node@sha256:" + "3".repeat(64);
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("worker", 1, false);
            h.config("00-worker", "worker", "one", good);
            for (int i = 0; i < 3; i++) h.node("worker-" + i, "worker", "zone-" + i, i);
            h.startAgents();
            h.startController("4.19.0");
            await("the first image everywhere")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();
            h.machines.values().forEach(m -> m.unbootable(bad));
            int[] rebootsBefore = h.machines.values().stream().mapToInt(m -> m.reboots()).toArray();

            h.config("00-worker", "worker", "two", bad);
            await("the pool degraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.conditionTrue("worker", "NodeDegraded"));
            String message = h.condition("worker", "NodeDegraded").getMessage();
            assertThat(message)
                    .contains(
                            "node image "
                                    + bad
                                    + " failed: the kubelet exited at once; back on "
                                    + good);
            String target = h.pool("worker").getSpec().getConfiguration().getName();
            long told =
                    h.client.nodes().list().getItems().stream()
                            .filter(
                                    n ->
                                            target.equals(
                                                    n.getMetadata()
                                                            .getAnnotations()
                                                            .get(NodeAnnotations.DESIRED_CONFIG)))
                            .count();
            assertThat(told).isEqualTo(1); // the rest untouched
            String failedNode =
                    h.client.nodes().list().getItems().stream()
                            .filter(
                                    n ->
                                            "Degraded"
                                                    .equals(
                                                            n.getMetadata()
                                                                    .getAnnotations()
                                                                    .get(NodeAnnotations.STATE)))
                            .findFirst()
                            .orElseThrow()
                            .getMetadata()
                            .getName();
            assertThat(h.annotation(failedNode, NodeAnnotations.CURRENT_CONFIG)).isEqualTo(first);
            assertThat(h.machines.get(failedNode).osImage()).isEqualTo(bad);
            // still Ready: the previous image runs
            assertThat(
                            h
                                    .client
                                    .nodes()
                                    .withName(failedNode)
                                    .get()
                                    .getStatus()
                                    .getConditions()
                                    .stream()
                                    .anyMatch(
                                            c ->
                                                    c.getType().equals("Ready")
                                                            && c.getStatus().equals("True")))
                    .isTrue();

            // the next release's image boots: every node takes it, the failed one too
            h.config("00-worker", "worker", "three", fixed);
            await("the fixed image everywhere")
                    .atMost(Duration.ofSeconds(90))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && h.machines.values().stream()
                                                    .allMatch(m -> fixed.equals(m.osImage())));
            assertThat(h.conditionTrue("worker", "NodeDegraded")).isFalse();
            int i = 0;
            for (var m : h.machines.values())
                assertThat(m.reboots()).isGreaterThan(rebootsBefore[i++]);
        }
    }
}
