package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.schema.CrdSchema;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.model.NodeAnnotations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pools rolled by the real pool controller and node agents on the embedded API server. */
@Tag("e2e")
class NodePoolRolloutTest {
    static final CrdSchema POOL_CRD =
            CrdSchema.bundled("machineconfigpools.machineconfiguration.openshift.io", "v1");

    @TempDir Path hosts;

    /**
     * Unavailable as the reference counts it: not schedulable, or not Done on the config it was
     * told.
     */
    static boolean unavailable(Node n) {
        Map<String, String> a =
                n.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : n.getMetadata().getAnnotations();
        boolean done =
                NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE))
                        && a.getOrDefault(NodeAnnotations.CURRENT_CONFIG, "")
                                .equals(a.getOrDefault(NodeAnnotations.DESIRED_CONFIG, ""));
        return Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                || (a.containsKey(NodeAnnotations.DESIRED_CONFIG) && !done);
    }

    @Test
    void aTenNodePoolNeverHasMoreThanMaxUnavailableDownAndEndsDone() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("worker", 2, false);
            h.config("00-worker", "worker", "one", "os@sha256:1");
            for (int i = 0; i < 10; i++) h.node("worker-" + i, "worker", "zone-" + (i % 3), i);
            h.startAgents();
            AtomicInteger most = new AtomicInteger();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler =
                    new Thread(
                            () -> {
                                while (sampling.get()) {
                                    int down =
                                            (int)
                                                    h.client.nodes().list().getItems().stream()
                                                            .filter(
                                                                    NodePoolRolloutTest
                                                                            ::unavailable)
                                                            .count();
                                    most.accumulateAndGet(down, Math::max);
                                }
                            });
            sampler.start();
            h.startController("4.19.0");
            await("the first config on every node")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();

            h.config("00-worker", "worker", "two", "os@sha256:2"); // a new config: a second rollout
            await("a new target")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                            h.pool("worker")
                                                    .getSpec()
                                                    .getConfiguration()
                                                    .getName()));
            await("the second config on every node")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            sampling.set(false);
            sampler.join();

            assertThat(most.get()).isBetween(1, 2);
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            assertThat(second).startsWith("rendered-worker-");
            for (int i = 0; i < 10; i++) {
                assertThat(
                                Files.readString(
                                        hosts.resolve(
                                                "worker-" + i + "/etc/upshift-test/00-worker"),
                                        StandardCharsets.UTF_8))
                        .isEqualTo("two");
                assertThat(h.machines.get("worker-" + i).osImage()).isEqualTo("os@sha256:2");
                assertThat(h.client.nodes().withName("worker-" + i).get().getSpec().getTaints())
                        .isNullOrEmpty();
                assertThat(h.annotation("worker-" + i, NodeAnnotations.LAST_APPLIED_DRAIN))
                        .isEqualTo("uncordon-" + second);
            }
            await("the pool's status")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.pool("worker").getStatus() != null
                                            && Integer.valueOf(10)
                                                    .equals(
                                                            h.pool("worker")
                                                                    .getStatus()
                                                                    .getUpdatedMachineCount())
                                            // the pass that saw all ten Done and ready (not one
                                            // that saw the last Done node still cordoned)
                                            && Integer.valueOf(10)
                                                    .equals(
                                                            h.pool("worker")
                                                                    .getStatus()
                                                                    .getReadyMachineCount())
                                            && second.equals(
                                                    h.pool("worker")
                                                            .getStatus()
                                                            .getConfiguration()
                                                            .getName()));
            MachineConfigPool pool = h.pool("worker");
            assertThat(POOL_CRD.violations(pool)).isEmpty();
            assertThat(h.condition("worker", "Updated").getMessage())
                    .isEqualTo("All nodes are updated with MachineConfig " + second);
        }
    }

    @Test
    void aTaintAnotherWriterAddsBetweenTheControllersReadAndItsWriteSurvives() throws Exception {
        // another writer's change landing exactly there: the embedded server's interleaving
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("w0", "worker", "a", 1);
            h.startAgents();
            // the controller's first write of the node finds that someone tainted it after the
            // controller read it
            h.embedded()
                    .dispatcher()
                    .beforeFirst(
                            r ->
                                    r.userAgent().equals(PoolHarness.CONTROLLER)
                                            && r.isWrite()
                                            && r.path().startsWith("/api/v1/nodes/w0"),
                            "/api/v1/nodes/w0",
                            "{\"spec\":{\"taints\":[{\"key\":\"example.com/maintenance\",\"effect\":\"NoSchedule\"}]}}");
            h.startController("4.19.0");
            await("the node updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            assertThat(h.client.nodes().withName("w0").get().getSpec().getTaints())
                    .extracting(t -> t.getKey())
                    .containsExactly("example.com/maintenance");
            assertThat(
                            h.server
                                    .requests()
                                    .matching(
                                            r ->
                                                    r.userAgent().equals(PoolHarness.CONTROLLER)
                                                            && r.isWrite()
                                                            && r.path()
                                                                    .startsWith(
                                                                            "/api/v1/nodes/w0")))
                    .hasSizeGreaterThanOrEqualTo(3); // refused, then told, then untainted
        }
    }

    @Test
    void aConfigTheOutgoingControllerRenderedCountsForTheIncomingRelease() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            String first = h.settledPoolOfOne("master", "master-0", "m1", "os@4.18.1", "4.18.1");

            // The new release's configs arrive while the old controller still runs: it renders
            // them, as 4.18.1's.
            h.config("00-master", "master", "m2", "os@4.18.2");
            await("a config rendered by the old controller")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                            h.pool("master")
                                                    .getSpec()
                                                    .getConfiguration()
                                                    .getName()));
            String second = h.pool("master").getSpec().getConfiguration().getName();
            assertThat(releaseOf(h, second)).isEqualTo("4.18.1");

            h.startController("4.18.2");
            await("the operator reporting 4.18.2")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                ClusterOperator co =
                                        h.client
                                                .resources(ClusterOperator.class)
                                                .withName("machine-config")
                                                .get();
                                return co != null
                                        && co.getStatus() != null
                                        && co.getStatus().getVersions() != null
                                        && "4.18.2"
                                                .equals(
                                                        co.getStatus()
                                                                .getVersions()
                                                                .get(0)
                                                                .getVersion());
                            });
            assertThat(releaseOf(h, second)).isEqualTo("4.18.2");
            assertThat(h.pool("master").getSpec().getConfiguration().getName()).isEqualTo(second);
            assertThat(PoolHarness.readFile(hosts.resolve("master-0/etc/upshift-test/00-master")))
                    .isEqualTo("m2");
        }
    }

    @Test
    void anAgentActsOnTheNodeEventNotItsNextPoll() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.agentOptions =
                    new AgentOptions(
                            Duration.ofSeconds(30),
                            Duration.ofMillis(100),
                            Duration.ofMillis(200),
                            Duration.ofHours(1),
                            Duration.ofHours(
                                    1)); // an hour between polls: only the watch can wake it in
            // time
            h.pool("worker", 1, false);
            h.config("00-worker", "worker", "one", "os@1");
            h.node("worker-0", "worker", "a", 1);
            h.startAgents();
            // the agent has looked once, found nothing to do, and waits
            await("the agent's first look")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.agents.get("worker-0").steps() >= 1);
            h.startController("4.19.0");
            await("the node updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            assertThat(h.machines.get("worker-0").reboots()).isEqualTo(1);
        }
    }

    @Test
    void agentsKilledAtRandomMomentsStillBringEveryNodeToTheNewConfig() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.pool("worker", 2, false);
            h.config("00-worker", "worker", "one", "os@1");
            for (int i = 0; i < 4; i++) {
                h.node("worker-" + i, "worker", "zone-" + (i % 2), i);
                h.machines.put(
                        "worker-" + i,
                        new SimulatedHost(Duration.ofMillis(800))); // kills land mid-reboot too
            }
            h.startAgents();
            h.startController("4.19.0");
            await("the first config everywhere")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();

            h.config("00-worker", "worker", "two", "os@2");
            await("a new target")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                            h.pool("worker")
                                                    .getSpec()
                                                    .getConfiguration()
                                                    .getName()));
            Random random = new Random(7);
            int duringRollout = 0;
            // Any moment: mid-drain, mid-write, mid-reboot, between two writes; a new agent starts
            // on the same host at once.
            for (int kill = 0; kill < 30; kill++) {
                Thread.sleep(random.nextInt(120));
                if (!h.settled("worker")) duringRollout++;
                String victim = "worker-" + random.nextInt(4);
                h.agents.remove(victim).close();
                h.startAgent(victim);
            }
            assertThat(duringRollout).isGreaterThanOrEqualTo(20);
            try {
                await("the new config everywhere")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.settled("worker"));
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "\n" + h.describe("worker"), e);
            }
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            for (int i = 0; i < 4; i++) {
                assertThat(
                                PoolHarness.readFile(
                                        hosts.resolve(
                                                "worker-" + i + "/etc/upshift-test/00-worker")))
                        .isEqualTo("two");
                assertThat(h.machines.get("worker-" + i).osImage()).isEqualTo("os@2");
                assertThat(h.annotation("worker-" + i, NodeAnnotations.CURRENT_CONFIG))
                        .isEqualTo(second);
                assertThat(hosts.resolve("worker-" + i + "/etc/upshift/pending-config"))
                        .doesNotExist();
            }
        }
    }

    static String releaseOf(PoolHarness h, String renderedConfig) {
        return h.client
                .resources(MachineConfig.class)
                .withName(renderedConfig)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(NodeAnnotations.RELEASE_IMAGE_VERSION);
    }
}
