package io.upshift.status.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.controller.PoolHarness;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drains held up by disruption budgets, agents killed mid-update, and what the status engine says
 * at each phase.
 */
@Tag("e2e")
class NodeAgentDrainTest {

    @TempDir Path hosts;

    /**
     * Two worker nodes on 4.18.0 configs, then a 4.19.0 controller with a new config; w0 (older)
     * goes first.
     */
    static void installThenUpdate(PoolHarness h, Runnable agents, Runnable workloads)
            throws InterruptedException {
        h.pool("worker", 1, false);
        h.config("00-worker", "worker", "old", "os@4.18");
        h.node("w0", "worker", "a", 20);
        h.node("w1", "worker", "a", 10);
        h.startController("4.18.0");
        agents.run();
        await("4.18.0 on both nodes")
                .atMost(Duration.ofSeconds(60))
                .until(() -> h.settled("worker"));
        workloads.run();
        h.clusterVersion("4.18.0", "4.19.0");
        h.config("00-worker", "worker", "new", "os@4.19");
        h.startController("4.19.0");
    }

    @Test
    void aBudgetThatRefusesKeepsTheNodeDrainingRaisesTheInsightThenDegradesIt() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.agentOptions =
                    new AgentOptions(
                            Duration.ofSeconds(8),
                            Duration.ofMillis(100),
                            Duration.ofMillis(200),
                            Duration.ofHours(1),
                            Duration.ofMillis(100));
            installThenUpdate(
                    h,
                    () -> {
                        h.startAgent("w1");
                        // w0's agent sees time 10 minutes behind, so its refusal is already older
                        // than the insight's threshold.
                        h.startAgent(
                                "w0", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10)));
                    },
                    () -> {
                        h.createPod("web-1", "w0", "web", false);
                        h.createPod("free-1", "w0", "free", false);
                        h.createPod("logs-w0", "w0", "logs", true);
                        h.client
                                .policy()
                                .v1()
                                .podDisruptionBudget()
                                .resource(
                                        new PodDisruptionBudgetBuilder()
                                                .withNewMetadata()
                                                .withName("web")
                                                .withNamespace("shop")
                                                .endMetadata()
                                                .withNewSpec()
                                                .withMinAvailable(new IntOrString(1))
                                                .withNewSelector()
                                                .addToMatchLabels("app", "web")
                                                .endSelector()
                                                .endSpec()
                                                .build())
                                .create();
                    });

            await("w0 draining, free-1 evicted")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.annotation("w0", NodeAnnotations.DESIRED_DRAIN)
                                                    .startsWith("drain-rendered-worker-")
                                            && h.client
                                                            .pods()
                                                            .inNamespace("shop")
                                                            .withName("free-1")
                                                            .get()
                                                    == null);
            String[] seen = {""};
            await("the drain insight")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                seen[0] = status(h);
                                return seen[0].contains("Node w0 cannot drain");
                            });
            String draining = seen[0];
            assertThat(draining)
                    .contains(
                            "Node w0 cannot drain: PodDisruptionBudget shop/web does not allow"
                                    + " evicting pod shop/web-1");
            assertThat(draining).containsPattern("w0\\s+Progressing\\s+Draining\\s+4\\.18\\.0");
            assertThat(draining).containsPattern("w1\\s+Outdated\\s+Pending\\s+4\\.18\\.0");
            assertThat(h.client.pods().inNamespace("shop").withName("web-1").get()).isNotNull();
            assertThat(h.client.pods().inNamespace("shop").withName("logs-w0").get())
                    .isNotNull(); // DaemonSet pods stay
            // the refusal in w0's MachineConfigNode too, as upstream's drain controller reports a
            // failing drain
            var mcn =
                    h.client
                            .resources(
                                    io.fabric8.openshift.api.model.machineconfiguration.v1
                                            .MachineConfigNode.class)
                            .withName("w0")
                            .get();
            assertThat(PoolHarness.mcnCondition(mcn, "Drained"))
                    .satisfies(
                            c -> {
                                assertThat(c.getStatus()).isEqualTo("Unknown");
                                assertThat(c.getMessage())
                                        .startsWith(
                                                "Error: Node Drain has not succeeded. Error is:"
                                                    + " PodDisruptionBudget shop/web does not allow"
                                                    + " evicting pod shop/web-1 The drain will not"
                                                    + " be complete until desired drainer"
                                                    + " drain-rendered-worker-");
                            });

            await("w0 Degraded after the drain timeout")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    NodeAnnotations.DEGRADED.equals(
                                            h.annotation("w0", NodeAnnotations.STATE)));
            assertThat(h.annotation("w0", NodeAnnotations.REASON))
                    .isEqualTo(
                            "failed to drain node: w0 after 8 seconds. Please see"
                                    + " machine-config-controller logs for more information");
            await("the pool's NodeDegraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.conditionTrue("worker", "NodeDegraded"));
            assertThat(status(h))
                    .containsPattern(
                            "w0\\s+Degraded\\s+Draining\\s+4\\.18\\.0\\s+\\?\\s+failed to drain"
                                    + " node: w0 after 8 seconds");
            assertThat(
                            PoolHarness.mcnCondition(
                                            h.client
                                                    .resources(
                                                            io.fabric8.openshift.api.model
                                                                    .machineconfiguration.v1
                                                                    .MachineConfigNode.class)
                                                    .withName("w0")
                                                    .get(),
                                            "NodeDegraded")
                                    .getMessage())
                    .isEqualTo(
                            "Node w0 upgrade failure. failed to drain node: w0 after 8 seconds."
                                    + " Please see machine-config-controller logs for more"
                                    + " information");
            assertThat(h.annotation("w1", NodeAnnotations.DESIRED_CONFIG))
                    .doesNotStartWith(
                            h.annotation(
                                    "w0",
                                    NodeAnnotations.DESIRED_CONFIG)); // w0 still uses the capacity
        }
    }

    @Test
    void anAgentKilledWhileRebootingResumesAndFinishes() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            // w0's next reboot lasts until its agent is killed: the kill lands mid-reboot however
            // slowly this machine runs the agent
            SimulatedHost slow = new SimulatedHost(Duration.ofHours(1));
            installThenUpdate(
                    h,
                    h::startAgents,
                    () -> {
                        h.agents.remove("w0").close();
                        slow.stageOs(h.machines.get("w0").os());
                        h.machines.put("w0", slow);
                        h.startAgent("w0");
                    });
            await("w0 rebooting")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    NodeAnnotations.REBOOTING.equals(
                                            h.annotation("w0", NodeAnnotations.STATE)));
            h.agents
                    .remove("w0")
                    .close(); // killed mid-reboot: the host never came back under this agent
            // the host comes back from its reboot meanwhile: a new boot, of the OS it staged
            SimulatedHost back = new SimulatedHost(Duration.ofMillis(150));
            back.stageOs(slow.os());
            h.machines.put("w0", back);
            assertThat(status(h)).containsPattern("w0\\s+Progressing\\s+Rebooting\\s+4\\.18\\.0");
            assertThat(h.annotation("w0", NodeAnnotations.CURRENT_CONFIG))
                    .isNotEqualTo(h.annotation("w0", NodeAnnotations.DESIRED_CONFIG));
            h.startAgent("w0");
            await("both nodes on 4.19.0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && h.annotation("w1", NodeAnnotations.CURRENT_CONFIG)
                                                    .equals(
                                                            h.pool("worker")
                                                                    .getSpec()
                                                                    .getConfiguration()
                                                                    .getName()));
            assertThat(PoolHarness.readFile(hosts.resolve("w0/etc/upshift-test/00-worker")))
                    .isEqualTo("new");
            assertThat(hosts.resolve("w0/etc/upshift/pending-config")).doesNotExist();
            await("the status engine sees them updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    status(h)
                                            .matches(
                                                    "(?s).*w0\\s+Completed\\s+Updated\\s+4\\.19\\.0.*"));
            assertThat(status(h)).containsPattern("w1\\s+Completed\\s+Updated\\s+4\\.19\\.0");
        }
    }

    /** What {@code upshift status --details=all} shows now. */
    private static String status(PoolHarness h) {
        Instant now = Instant.now();
        return StatusRenderer.render(
                UpdateAssessment.assess(
                        new ClusterReader(h.client).read(Optional.empty()), now, now),
                now,
                Details.parse("all"));
    }
}
