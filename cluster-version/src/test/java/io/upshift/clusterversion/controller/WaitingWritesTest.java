package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.base.conditions.Conditions;
import io.upshift.testkit.AcceleratedClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update that waits on an operator for several minutes of the controller's clock (which runs 30
 * times faster than the wall's here, with the production timings: a pass gives up waiting after 30
 * s and the next starts at once): the Progressing message says "waiting on test-operator" the whole
 * time, and nothing is written until the operator moves; then the update completes.
 */
@Tag("e2e")
class WaitingWritesTest {

    @TempDir Path dir;

    @Test
    void anUpdateWaitingOnAnOperatorWritesNothingUntilSomethingChanges() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            AcceleratedClock clock =
                    new AcceleratedClock(Instant.parse("2026-11-02T00:00:00Z"), 30);
            h.clock = clock;
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            h.start(
                    ControllerHarness.options(a, dir.resolve("cache"))
                            .withTiming(
                                    Duration.ofSeconds(30),
                                    Duration.ofMinutes(2),
                                    Duration.ofSeconds(1)));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            h.holdOperator(true);
            h.requestUpdate("4.1.1", b, false);
            String waiting =
                    "Working towards 4.1.1: 2 of 3 done (66% complete), waiting on test-operator";
            await("the first pass ended waiting on the operator")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.condition("Progressing").getMessage(), waiting::equals);

            List<String> messages = new CopyOnWriteArrayList<>();
            SharedIndexInformer<ClusterVersion> watch =
                    h.client
                            .resources(ClusterVersion.class)
                            .withName("version")
                            .inform(
                                    new ResourceEventHandler<>() {
                                        @Override
                                        public void onAdd(ClusterVersion cv) {}

                                        @Override
                                        public void onUpdate(
                                                ClusterVersion old, ClusterVersion cv) {
                                            ClusterOperatorStatusCondition c =
                                                    Conditions.CLUSTER.find(
                                                            cv.getStatus().getConditions(),
                                                            "Progressing");
                                            messages.add(c == null ? "" : c.getMessage());
                                        }

                                        @Override
                                        public void onDelete(ClusterVersion cv, boolean unknown) {}
                                    });
            try {
                long writes = h.controller.writes();
                int requests = h.controllerRequests(r -> r.isWrite()).size();
                long passes = h.controller.passes();
                Instant from = clock.instant();
                await("several minutes of the controller's clock, and passes")
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        clock.since(from).compareTo(Duration.ofMinutes(5)) >= 0
                                                && h.controller.passes() >= passes + 5);
                assertThat(h.controller.writes())
                        .as("writes while nothing changed")
                        .isEqualTo(writes);
                assertThat(h.controllerRequests(r -> r.isWrite())).hasSize(requests);
                assertThat(messages).as("ClusterVersion changes while nothing changed").isEmpty();
                assertThat(h.condition("Progressing").getMessage()).isEqualTo(waiting);

                // a real change: the operator rolls out, and the update completes
                h.holdOperator(false);
                await("4.1.1 applied")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.completed("4.1.1"));
                assertThat(h.controller.writes()).isGreaterThan(writes);
            } finally {
                watch.close();
            }
        }
    }
}
