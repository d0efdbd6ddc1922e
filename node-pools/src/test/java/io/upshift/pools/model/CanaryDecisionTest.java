package io.upshift.pools.model;

import static io.upshift.pools.model.PoolDecisionTest.NOW;
import static io.upshift.pools.model.PoolDecisionTest.config;
import static io.upshift.pools.model.PoolDecisionTest.node;
import static io.upshift.pools.model.PoolDecisionTest.pool;
import static io.upshift.pools.model.PoolDecisionTest.renderedName;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.graph.risk.PromQLSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decision with health gates on Prometheus and canaries: what it asks Prometheus, what holds,
 * when the pool pauses itself, and the canaries taken back.
 */
class CanaryDecisionTest {
    static final String ALERT = "ALERTS{alertstate=\"firing\",alertname=\"Backup\"}";
    static final Map<String, GateReading> QUIET =
            Map.of(ALERT, new GateReading.Samples(List.of(), NOW));
    static final Map<String, GateReading> FIRING =
            Map.of(
                    ALERT,
                    new GateReading.Samples(
                            List.of(new PromQLSample(Map.of("alertname", "Backup"), "1")), NOW));

    final List<MachineConfig> configs =
            new ArrayList<>(List.of(config("00-worker", "worker", null)));
    final String target = renderedName(configs);

    {
        configs.add(PoolDecisionTest.rendered(target, "4.19.0"));
    }

    MachineConfigPool annotated(Map<String, String> annotations, boolean paused) {
        MachineConfigPool p = pool("worker", target, 3);
        p.getMetadata().setAnnotations(new HashMap<>(annotations));
        p.getSpec().setPaused(paused);
        return p;
    }

    PoolPlan.Pool decide(MachineConfigPool pool, List<Node> nodes, Map<String, GateReading> r) {
        return PoolDecision.decide(
                        new PoolDecision.Input(
                                "4.19.0",
                                "",
                                Duration.ofMinutes(10),
                                List.of(pool),
                                configs,
                                null,
                                nodes,
                                Map.of(),
                                NOW,
                                List.of(),
                                r,
                                PoolDecision.Hooks.NONE))
                .pools()
                .get(0);
    }

    static List<Node> oldNodes() {
        return List.of(
                node("w-a", "zone-a", 3, "old", "old", "Done"),
                node("w-b", "zone-a", 2, "old", "old", "Done"),
                node("w-c", "zone-a", 1, "old", "old", "Done"));
    }

    static List<String> told(PoolPlan.Pool p) {
        return p.tell().stream().map(t -> t.node().getMetadata().getName()).toList();
    }

    @Test
    void prometheusIsAskedOnlyWhileARolloutIsDueAndItsAnswerHolds() {
        MachineConfigPool pool = annotated(Map.of(HealthGates.ALERTS, "Backup"), false);
        PoolPlan.Pool unasked = decide(pool, oldNodes(), Map.of());
        assertThat(unasked.queries()).containsExactly(ALERT);
        assertThat(unasked.tell()).isEmpty();
        assertThat(unasked.hold().message()).endsWith("has not been evaluated yet");

        PoolPlan.Pool firing = decide(pool, oldNodes(), FIRING);
        assertThat(firing.tell()).isEmpty();
        assertThat(firing.hold().reason()).isEqualTo("HealthGate");
        assertThat(firing.hold().message()).startsWith("Alert Backup is firing");
        assertThat(firing.halt()).isNull(); // no canaries

        assertThat(told(decide(pool, oldNodes(), QUIET))).hasSize(3);

        List<Node> level =
                List.of(
                        node("w-a", "zone-a", 3, target, target, "Done"),
                        node("w-b", "zone-a", 2, target, target, "Done"));
        PoolPlan.Pool atRest = decide(pool, level, Map.of());
        assertThat(atRest.queries()).isEmpty();
        assertThat(atRest.hold()).isNull();

        // a paused pool asks nothing either
        assertThat(
                        decide(
                                        annotated(Map.of(HealthGates.ALERTS, "Backup"), true),
                                        oldNodes(),
                                        Map.of())
                                .queries())
                .isEmpty();
    }

    @Test
    void theCanariesGoFirstAndAloneAndTheRestFollowOnceTheyAreDone() {
        MachineConfigPool pool =
                annotated(Map.of(Canaries.ANNOTATION, "1", HealthGates.ALERTS, "Backup"), false);
        // maxUnavailable 3, but one canary first
        assertThat(told(decide(pool, oldNodes(), QUIET))).containsExactly("w-a");

        List<Node> updating =
                List.of(
                        node("w-a", "zone-a", 3, "old", target, "Working"),
                        node("w-b", "zone-a", 2, "old", "old", "Done"),
                        node("w-c", "zone-a", 1, "old", "old", "Done"));
        PoolPlan.Pool watching = decide(pool, updating, QUIET);
        assertThat(watching.tell()).isEmpty();
        assertThat(watching.hold().reason()).isEqualTo("Canaries");
        assertThat(watching.hold().message())
                .isEqualTo(
                        "Waiting for the canaries w-a (upshift.io/canaries: 1) to be done with"
                                + " MachineConfig "
                                + target
                                + " before the rest of the pool starts");
        assertThat(watching.halt()).isNull();

        List<Node> done =
                List.of(
                        node("w-a", "zone-a", 3, target, target, "Done"),
                        node("w-b", "zone-a", 2, "old", "old", "Done"),
                        node("w-c", "zone-a", 1, "old", "old", "Done"));
        assertThat(told(decide(pool, done, QUIET))).containsExactly("w-b", "w-c");
    }

    @Test
    void aGateFiringWhileTheCanariesUpdateOrSoakPausesThePool() {
        MachineConfigPool pool =
                annotated(
                        Map.of(
                                Canaries.ANNOTATION,
                                "1",
                                HealthGates.ALERTS,
                                "Backup",
                                SoakTime.ANNOTATION,
                                "10m"),
                        false);
        // before any canary: a hold, not a pause
        assertThat(decide(pool, oldNodes(), FIRING).halt()).isNull();

        Node soaking = node("w-a", "zone-a", 3, target, target, "Done");
        soaking.getMetadata()
                .getAnnotations()
                .put(NodeAnnotations.UPDATE_DONE_AT, NOW.minusSeconds(60).toString());
        List<Node> nodes =
                List.of(
                        soaking,
                        node("w-b", "zone-a", 2, "old", "old", "Done"),
                        node("w-c", "zone-a", 1, "old", "old", "Done"));
        PoolPlan.Pool soakQuiet = decide(pool, nodes, QUIET);
        assertThat(soakQuiet.halt()).isNull();
        assertThat(soakQuiet.hold().reason()).isEqualTo("SoakTime");

        PoolPlan.Pool halted = decide(pool, nodes, FIRING);
        assertThat(halted.tell()).isEmpty();
        assertThat(halted.halt())
                .isEqualTo(
                        "Paused by its canaries (upshift.io/canaries: 1) while nodes w-a took"
                                + " MachineConfig "
                                + target
                                + ": Alert Backup is firing, which the health gate \"Backup\""
                                + " (upshift.io/health-gate-alerts) matches: no new node starts"
                                + " while it fires");
        assertThat(halted.isLevel()).isFalse();

        // after the soak, the canaries are over: a gate holds, and pauses nothing
        soaking.getMetadata()
                .getAnnotations()
                .put(NodeAnnotations.UPDATE_DONE_AT, NOW.minus(Duration.ofMinutes(11)).toString());
        assertThat(decide(pool, nodes, FIRING).halt()).isNull();
    }

    @Test
    void aHaltedPoolSaysWhyAndTakesItsCanariesBackWhenAsked() {
        String why = "Paused by its canaries (upshift.io/canaries: 1) while nodes w-a took ...";
        List<Node> nodes =
                List.of(
                        node("w-a", "zone-a", 3, target, target, "Done"),
                        node("w-b", "zone-a", 2, "old", "old", "Done"),
                        node("w-c", "zone-a", 1, "old", "old", "Done"));
        PoolPlan.Pool paused =
                decide(
                        annotated(Map.of(Canaries.ANNOTATION, "1", Canaries.HALTED, why), true),
                        nodes,
                        Map.of());
        assertThat(paused.tell()).isEmpty();
        assertThat(paused.hold().reason()).isEqualTo("CanaryHalted");
        assertThat(paused.hold().message())
                .isEqualTo(
                        why
                                + ". Unpause the pool to go on, or set"
                                + " upshift.io/canary-rollback=true to take the canaries back");
        var held =
                paused.status().getConditions().stream()
                        .filter(c -> c.getType().equals("RolloutHeld"))
                        .findFirst()
                        .orElseThrow();
        assertThat(held.getStatus()).isEqualTo("True");
        assertThat(held.getReason()).isEqualTo("CanaryHalted");

        PoolPlan.Pool back =
                decide(
                        annotated(
                                Map.of(
                                        Canaries.ANNOTATION,
                                        "1",
                                        Canaries.HALTED,
                                        why,
                                        Canaries.ROLLBACK,
                                        "true"),
                                true),
                        nodes,
                        Map.of());
        assertThat(back.tell()).extracting(PoolPlan.Tell::config).containsExactly("old");
        assertThat(told(back)).containsExactly("w-a");
        assertThat(back.hold().message())
                .endsWith(
                        ". Taking the canaries back to MachineConfig old"
                                + " (upshift.io/canary-rollback): w-a not back yet");
        assertThat(back.resume()).isFalse();

        // unpaused by the administrator: the controller's marks go
        PoolPlan.Pool resumed =
                decide(
                        annotated(Map.of(Canaries.ANNOTATION, "1", Canaries.HALTED, why), false),
                        nodes,
                        QUIET);
        assertThat(resumed.resume()).isTrue();
        // an administrator's own pause is not the canaries'
        assertThat(
                        decide(annotated(Map.of(Canaries.ANNOTATION, "1"), true), nodes, Map.of())
                                .hold())
                .isNull();
    }

    @Test
    void badCanaryAnnotationsDegradeThePoolAndTouchNothing() {
        PoolPlan.Pool bad =
                decide(annotated(Map.of(Canaries.ANNOTATION, "two"), false), oldNodes(), Map.of());
        assertThat(bad.tell()).isEmpty();
        assertThat(bad.problems())
                .containsExactly(
                        "no node touched: annotation upshift.io/canaries \"two\": not a whole"
                                + " number of nodes");
        PoolPlan.Pool rollback =
                decide(annotated(Map.of(Canaries.ROLLBACK, "yes"), false), oldNodes(), Map.of());
        assertThat(rollback.tell()).isEmpty();
        assertThat(rollback.problems())
                .containsExactly(
                        "no node touched: annotation upshift.io/canary-rollback \"yes\": must be"
                                + " true or false");
        assertThat(
                        decide(
                                        annotated(Map.of(Canaries.ANNOTATION, "-1"), false),
                                        oldNodes(),
                                        Map.of())
                                .problems())
                .containsExactly(
                        "no node touched: annotation upshift.io/canaries \"-1\": must not be"
                                + " negative");
    }
}
