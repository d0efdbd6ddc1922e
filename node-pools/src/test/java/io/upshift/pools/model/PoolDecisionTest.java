package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The pool controller's decision, from concrete caches to concrete plans, with no server. */
class PoolDecisionTest {
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final String ROLE = "machineconfiguration.openshift.io/role";

    static MachineConfigPool pool(String name, String target, Object maxUnavailable) {
        MachineConfigPoolBuilder b =
                new MachineConfigPoolBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withUid("uid-" + name)
                        .withGeneration(2L)
                        .withResourceVersion("7")
                        .endMetadata()
                        .withNewSpec()
                        .withNewMachineConfigSelector()
                        .addToMatchLabels(ROLE, name)
                        .endMachineConfigSelector()
                        .withNewNodeSelector()
                        .addToMatchLabels("node-role.kubernetes.io/" + name, "")
                        .endNodeSelector()
                        .withMaxUnavailable(
                                maxUnavailable == null
                                        ? null
                                        : maxUnavailable instanceof Integer i
                                                ? new IntOrString(i)
                                                : new IntOrString(maxUnavailable.toString()))
                        .endSpec();
        if (target != null)
            b.editSpec().withNewConfiguration().withName(target).endConfiguration().endSpec();
        return b.build();
    }

    static MachineConfig config(String name, String role, String generatedBy) {
        MachineConfigBuilder b =
                new MachineConfigBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withResourceVersion("3")
                        .addToLabels(ROLE, role)
                        .endMetadata()
                        .withNewSpec()
                        .withOsImageURL("os@1")
                        .endSpec();
        if (generatedBy != null)
            b.editMetadata()
                    .addToAnnotations(NodeAnnotations.GENERATED_BY, generatedBy)
                    .endMetadata();
        return b.build();
    }

    /** A rendered config as a controller of {@code release} made it. */
    static MachineConfig rendered(String name, String release) {
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .withResourceVersion("4")
                .addToAnnotations(NodeAnnotations.RELEASE_IMAGE_VERSION, release)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
    }

    static Node node(
            String name, String zone, int ageDays, String current, String desired, String state) {
        NodeBuilder b =
                new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withResourceVersion("10")
                        .addToLabels("node-role.kubernetes.io/worker", "")
                        .addToLabels(PoolMembers.ZONE_LABEL, zone)
                        .withCreationTimestamp(NOW.minus(Duration.ofDays(ageDays)).toString())
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus();
        if (current != null)
            b.editMetadata()
                    .addToAnnotations(NodeAnnotations.CURRENT_CONFIG, current)
                    .addToAnnotations(NodeAnnotations.DESIRED_CONFIG, desired)
                    .addToAnnotations(NodeAnnotations.STATE, state)
                    .endMetadata();
        return b.build();
    }

    static PoolPlan decide(
            String release,
            List<MachineConfigPool> pools,
            List<MachineConfig> configs,
            List<Node> nodes,
            Map<String, Instant> unusedSince) {
        return PoolDecision.decide(
                new PoolDecision.Input(
                        release,
                        "",
                        Duration.ofMinutes(10),
                        pools,
                        configs,
                        null,
                        nodes,
                        unusedSince,
                        NOW));
    }

    static String renderedName(List<MachineConfig> configs) {
        return RenderedConfig.render(
                        "worker",
                        pool("worker", null, null).getSpec().getMachineConfigSelector(),
                        configs)
                .name();
    }

    @Test
    void aNewPoolGetsItsRenderedConfigCreatedTargetedAndTheOldestNodeOfTheFirstZoneTold() {
        List<MachineConfig> configs = List.of(config("00-worker", "worker", null));
        String rendered = renderedName(configs);
        PoolPlan plan =
                decide(
                        "4.19.0",
                        List.of(pool("worker", null, null)),
                        configs,
                        List.of(
                                node("w-a", "zone-b", 9, null, null, null),
                                node("w-b", "zone-a", 1, null, null, null),
                                node("w-c", "zone-a", 5, null, null, null)),
                        Map.of());

        PoolPlan.Pool worker = plan.pools().get(0);
        assertThat(worker.config()).isInstanceOf(PoolPlan.Create.class);
        MachineConfig created = ((PoolPlan.Create) worker.config()).config();
        assertThat(created.getMetadata().getName()).isEqualTo(rendered);
        assertThat(created.getMetadata().getAnnotations())
                .containsEntry(NodeAnnotations.RELEASE_IMAGE_VERSION, "4.19.0")
                .containsEntry(NodeAnnotations.GENERATED_BY, "4.19.0");
        assertThat(created.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(
                        o ->
                                assertThat(List.of(o.getKind(), o.getName(), o.getUid()))
                                        .containsExactly(
                                                "MachineConfigPool", "worker", "uid-worker"));
        assertThat(((PoolPlan.Create) worker.config()).sources()).containsExactly("00-worker");
        assertThat(worker.target().name()).isEqualTo(rendered);
        assertThat(worker.tell())
                .singleElement()
                .satisfies(
                        t -> {
                            assertThat(t.node().getMetadata().getName()).isEqualTo("w-c");
                            assertThat(t.config()).isEqualTo(rendered);
                            assertThat(t.taints())
                                    .extracting(Taint::getKey, Taint::getEffect)
                                    .containsExactly(
                                            Tuple.tuple("UpdateInProgress", "PreferNoSchedule"));
                        });
        assertThat(worker.untaint()).isEmpty();
        assertThat(worker.status().getMachineCount()).isEqualTo(3);
        assertThat(worker.status().getUnavailableMachineCount()).isEqualTo(1);
        assertThat(worker.status().getConfiguration().getName()).isEqualTo(rendered);
        assertThat(worker.problems()).isEmpty();
        assertThat(worker.gate().released()).isFalse();
        assertThat(plan.deletions()).isEmpty();
        assertThat(plan.members().get("worker"))
                .extracting(n -> n.getMetadata().getName())
                .containsExactly("w-a", "w-b", "w-c");
    }

    @Test
    void aLevelClusterPlansNoWrite() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        configs.add(rendered(rendered, "4.19.0"));
        List<Node> nodes =
                List.of(
                        node("w-a", "zone-a", 2, rendered, rendered, "Done"),
                        node("w-b", "zone-b", 1, rendered, rendered, "Done"));
        MachineConfigPool pool = pool("worker", rendered, 1);
        PoolPlan first = decide("4.19.0", List.of(pool), configs, nodes, Map.of());
        assertThat(first.pools().get(0).status()).isNotNull(); // no status yet
        pool.setStatus(first.pools().get(0).status());

        PoolPlan level = decide("4.19.0", List.of(pool), configs, nodes, Map.of());

        assertThat(level.isLevel()).isTrue();
        assertThat(level.pools().get(0).gate().released()).isTrue();
        assertThat(level.pools().get(0).gate().nodeVersions())
                .containsExactly(Map.entry("w-a", "4.19.0"), Map.entry("w-b", "4.19.0"));
        // an hour later still: the conditions keep their times, nothing else moves
        PoolPlan later =
                PoolDecision.decide(
                        new PoolDecision.Input(
                                "4.19.0",
                                "",
                                Duration.ofMinutes(10),
                                List.of(pool),
                                configs,
                                null,
                                nodes,
                                Map.of(),
                                NOW.plus(Duration.ofHours(1))));
        assertThat(later.isLevel()).isTrue();
    }

    @Test
    void theSameConfigRenderedByTheOutgoingReleaseIsClaimedNotCreated() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        MachineConfig previous = rendered(rendered, "4.18.2");
        configs.add(previous);
        PoolPlan plan =
                decide(
                        "4.19.0",
                        List.of(pool("worker", rendered, 1)),
                        configs,
                        List.of(node("w-a", "zone-a", 2, rendered, rendered, "Done")),
                        Map.of());
        PoolPlan.Pool worker = plan.pools().get(0);
        assertThat(worker.config()).isEqualTo(new PoolPlan.Claim(previous, "4.18.2", "4.19.0"));
        assertThat(worker.target()).isNull();
        assertThat(worker.tell()).isEmpty();
        // claimed in this pass: the pool counts as on this release
        assertThat(worker.gate().released()).isTrue();
    }

    @Test
    void aNodeDoneLosesTheUpdateTaintAndKeepsEveryOther() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        configs.add(rendered(rendered, "4.19.0"));
        Node done = node("w-a", "zone-a", 2, rendered, rendered, "Done");
        done.getSpec()
                .setTaints(
                        List.of(
                                new Taint("NoSchedule", "example.com/maintenance", null, null),
                                new Taint("PreferNoSchedule", "UpdateInProgress", null, null)));
        Node working = node("w-b", "zone-a", 1, "rendered-worker-old", rendered, "Working");
        working.getSpec()
                .setTaints(List.of(new Taint("PreferNoSchedule", "UpdateInProgress", null, null)));
        PoolPlan plan =
                decide(
                        "4.19.0",
                        List.of(pool("worker", rendered, 1)),
                        configs,
                        List.of(done, working),
                        Map.of());
        assertThat(plan.pools().get(0).untaint())
                .singleElement()
                .satisfies(
                        u -> {
                            assertThat(u.node()).isSameAs(done);
                            assertThat(u.taints())
                                    .extracting(Taint::getKey)
                                    .containsExactly("example.com/maintenance");
                        });
        assertThat(plan.pools().get(0).tell()).isEmpty(); // w-b uses the one unavailable slot
    }

    @Test
    void unusedRenderedConfigsAreDeletedOnlyAfterTheGracePeriod() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        configs.add(rendered(rendered, "4.19.0"));
        configs.add(rendered("rendered-worker-old", "4.18.2"));
        configs.add(rendered("rendered-worker-older", "4.18.1"));
        configs.add(rendered("rendered-worker-told", "4.18.2"));
        PoolPlan plan =
                decide(
                        "4.19.0",
                        List.of(pool("worker", rendered, 1)),
                        configs,
                        List.of(
                                node(
                                        "w-a",
                                        "zone-a",
                                        2,
                                        "rendered-worker-told",
                                        rendered,
                                        "Working")),
                        Map.of(
                                "rendered-worker-older",
                                NOW.minus(Duration.ofMinutes(11)),
                                "rendered-worker-old",
                                NOW.minus(Duration.ofMinutes(9))));
        assertThat(plan.deletions()).containsExactly("rendered-worker-older");
        assertThat(plan.unusedSince())
                .containsExactly(
                        Map.entry("rendered-worker-old", NOW.minus(Duration.ofMinutes(9))));

        PoolPlan fresh =
                decide(
                        "4.19.0",
                        List.of(pool("worker", rendered, 1)),
                        configs,
                        List.of(
                                node(
                                        "w-a",
                                        "zone-a",
                                        2,
                                        "rendered-worker-told",
                                        rendered,
                                        "Working")),
                        Map.of());
        assertThat(fresh.deletions()).isEmpty();
        assertThat(fresh.unusedSince())
                .containsOnly(
                        Map.entry("rendered-worker-old", NOW),
                        Map.entry("rendered-worker-older", NOW));
    }

    @Test
    void aConfigAnotherReleasesControllerGeneratedIsNotRenderedAndNoNodeIsTold() {
        List<MachineConfig> configs = List.of(config("00-worker", "worker", "4.19.0"));
        PoolPlan plan =
                decide(
                        "4.19.1",
                        List.of(pool("worker", "rendered-worker-before", 1)),
                        configs,
                        List.of(
                                node(
                                        "w-a",
                                        "zone-a",
                                        2,
                                        "rendered-worker-before",
                                        "rendered-worker-before",
                                        "Done")),
                        Map.of());
        PoolPlan.Pool worker = plan.pools().get(0);
        assertThat(worker.problems())
                .containsExactly(
                        "not rendered: ignoring MachineConfig 00-worker generated by release"
                                + " 4.19.0's controller (this controller's release: 4.19.1)");
        assertThat(worker.config()).isNull();
        assertThat(worker.target()).isNull();
        assertThat(worker.tell()).isEmpty();
        assertThat(worker.status().getConditions())
                .filteredOn(c -> c.getType().equals("RenderDegraded"))
                .singleElement()
                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    }

    @Test
    void anInvalidMaxUnavailableOrAPausedPoolTouchesNoNode() {
        List<MachineConfig> configs = List.of(config("00-worker", "worker", null));
        List<Node> nodes = List.of(node("w-a", "zone-a", 2, null, null, null));
        PoolPlan invalid =
                decide("4.19.0", List.of(pool("worker", null, "abc")), configs, nodes, Map.of());
        assertThat(invalid.pools().get(0).tell()).isEmpty();
        assertThat(invalid.pools().get(0).target()).isNotNull(); // rendered all the same
        assertThat(invalid.pools().get(0).problems())
                .containsExactly(
                        "no node touched: spec.maxUnavailable \"abc\" is neither a number of nodes"
                                + " nor a percentage (0%-100%)");

        MachineConfigPool paused = pool("worker", null, 1);
        paused.getSpec().setPaused(true);
        PoolPlan held = decide("4.19.0", List.of(paused), configs, nodes, Map.of());
        assertThat(held.pools().get(0).tell()).isEmpty();
        assertThat(held.pools().get(0).problems()).isEmpty();
    }

    @Test
    void templatesThatDoNotRenderRenderNoPool() {
        PoolPlan plan =
                PoolDecision.decide(
                        new PoolDecision.Input(
                                "4.19.0",
                                "",
                                Duration.ofMinutes(10),
                                List.of(pool("worker", "rendered-worker-before", 1)),
                                List.of(config("00-worker", "worker", null)),
                                "ConfigMap x/machine-config-templates: line 3: unknown field"
                                        + " .Hostname",
                                List.of(node("w-a", "zone-a", 2, null, null, null)),
                                Map.of(),
                                NOW));
        PoolPlan.Pool worker = plan.pools().get(0);
        assertThat(worker.config()).isNull();
        assertThat(worker.target()).isNull();
        assertThat(worker.problems()).isEmpty(); // the base configs' sync says it, once
        assertThat(worker.gate().progress().renderError())
                .isEqualTo("ConfigMap x/machine-config-templates: line 3: unknown field .Hostname");
        // the target kept: its node is still told it
        assertThat(worker.tell())
                .extracting(PoolPlan.Tell::config)
                .containsExactly("rendered-worker-before");
    }

    @Test
    void aSoakHoldsTheNextNodeWithTheConditionAndAWakeAndABadOneTouchesNothing() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        configs.add(rendered(rendered, "4.19.0"));
        Node done = node("w-a", "zone-a", 2, rendered, rendered, "Done");
        done.getMetadata()
                .getAnnotations()
                .put(NodeAnnotations.UPDATE_DONE_AT, NOW.minusSeconds(10).toString());
        List<Node> nodes = List.of(done, node("w-b", "zone-b", 1, "old", "old", "Done"));
        MachineConfigPool pool = pool("worker", rendered, 1);
        pool.getMetadata()
                .setAnnotations(new java.util.HashMap<>(Map.of(SoakTime.ANNOTATION, "30s")));

        PoolPlan.Pool held =
                decide("4.19.0", List.of(pool), configs, nodes, Map.of()).pools().get(0);
        assertThat(held.tell()).isEmpty();
        assertThat(held.hold().until()).isEqualTo(NOW.plusSeconds(20));
        var condition =
                held.status().getConditions().stream()
                        .filter(c -> c.getType().equals("RolloutHeld"))
                        .findFirst()
                        .orElseThrow();
        assertThat(condition.getStatus()).isEqualTo("True");
        assertThat(condition.getReason()).isEqualTo("SoakTime");
        assertThat(condition.getMessage()).startsWith("Soaking node w-a for 30s");
        // the rollout is under way all the same
        assertThat(
                        held.status().getConditions().stream()
                                .filter(c -> c.getType().equals("Updating"))
                                .findFirst()
                                .orElseThrow()
                                .getStatus())
                .isEqualTo("True");
        assertThat(new PoolPlan(List.of(held), List.of(), Map.of(), Map.of()).wakeAt())
                .isEqualTo(NOW.plusSeconds(20));

        PoolPlan after =
                PoolDecision.decide(
                        new PoolDecision.Input(
                                "4.19.0",
                                "",
                                Duration.ofMinutes(10),
                                List.of(pool),
                                configs,
                                null,
                                nodes,
                                Map.of(),
                                NOW.plusSeconds(20)));
        assertThat(after.pools().get(0).tell())
                .extracting(t -> t.node().getMetadata().getName())
                .containsExactly("w-b");
        assertThat(after.pools().get(0).hold()).isNull();

        pool.getMetadata().getAnnotations().put(SoakTime.ANNOTATION, "half a minute");
        PoolPlan.Pool invalid =
                decide("4.19.0", List.of(pool), configs, nodes, Map.of()).pools().get(0);
        assertThat(invalid.tell()).isEmpty();
        assertThat(invalid.problems())
                .containsExactly(
                        "no node touched: annotation upshift.io/soak-time \"half a minute\": not a"
                                + " duration (e.g. 30s, 10m, 1h30m)");
        assertThat(
                        invalid.status().getConditions().stream()
                                .filter(c -> c.getType().equals("Degraded"))
                                .findFirst()
                                .orElseThrow()
                                .getMessage())
                .isEqualTo(
                        "annotation upshift.io/soak-time \"half a minute\": not a duration (e.g."
                                + " 30s, 10m, 1h30m)");
    }

    @Test
    void aNodeThatCouldNotFinishBeforeTheWindowClosesIsNotStarted() {
        List<MachineConfig> configs = new ArrayList<>(List.of(config("00-worker", "worker", null)));
        String rendered = renderedName(configs);
        configs.add(rendered(rendered, "4.19.0"));
        // w-a took 20 minutes last time; NOW is Sunday 10:00 UTC
        Node timed = node("w-a", "zone-a", 2, "old", "old", "Done");
        timed.getMetadata()
                .getAnnotations()
                .putAll(
                        Map.of(
                                NodeAnnotations.UPDATE_STARTED_AT,
                                NOW.minus(Duration.ofDays(1)).toString(),
                                NodeAnnotations.UPDATE_DONE_AT,
                                NOW.minus(Duration.ofDays(1))
                                        .plus(Duration.ofMinutes(20))
                                        .toString()));
        List<Node> nodes = List.of(timed, node("w-b", "zone-b", 1, "old", "old", "Done"));
        MachineConfigPool pool = pool("worker", rendered, 1);
        pool.getMetadata()
                .setAnnotations(
                        new java.util.HashMap<>(
                                Map.of(MaintenanceWindow.ANNOTATION, "Sun 09:00-10:15")));

        PoolPlan.Pool held =
                decide("4.19.0", List.of(pool), configs, nodes, Map.of()).pools().get(0);
        assertThat(held.tell()).isEmpty();
        assertThat(held.hold().reason()).isEqualTo(RolloutHold.WINDOW);
        assertThat(held.hold().until()).isEqualTo(Instant.parse("2026-11-29T09:00:00Z"));
        assertThat(held.hold().message())
                .isEqualTo(
                        "A node would not finish before the maintenance window \"Sun"
                                + " 09:00-10:15\" closes at 2026-11-22T10:15:00Z (a node takes"
                                + " about 20m0s, the mean of 1 node's last update): the next node"
                                + " starts when it opens again at 2026-11-29T09:00:00Z, to update"
                                + " to MachineConfig "
                                + rendered);

        // with 30 minutes left, the first node starts
        pool.getMetadata().getAnnotations().put(MaintenanceWindow.ANNOTATION, "Sun 09:00-10:30");
        PoolPlan.Pool fits =
                decide("4.19.0", List.of(pool), configs, nodes, Map.of()).pools().get(0);
        assertThat(fits.hold()).isNull();
        assertThat(fits.tell()).hasSize(1);
    }
}
