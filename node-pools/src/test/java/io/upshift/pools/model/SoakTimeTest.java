package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A pool's soak time: the annotation's value, and what it holds when. */
class SoakTimeTest {
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final String NEW = "rendered-worker-new", OLD = "rendered-worker-old";

    static PoolNode node(
            String name, String current, String desired, boolean ready, Instant since) {
        return new PoolNode(
                name, current, desired, "Done", "", ready, "", Instant.EPOCH, false, since);
    }

    @Test
    void goDurationsParseAndBadValuesAreNamed() {
        assertThat(SoakTime.parse("30s").length()).isEqualTo(Duration.ofSeconds(30));
        assertThat(SoakTime.parse(" 1h30m ").length()).isEqualTo(Duration.ofMinutes(90));
        assertThat(SoakTime.parse("0").length()).isZero();
        assertThatThrownBy(() -> SoakTime.parse("thirty"))
                .hasMessage(
                        "annotation upshift.io/soak-time \"thirty\": not a duration (e.g. 30s, 10m,"
                                + " 1h30m)");
        assertThatThrownBy(() -> SoakTime.parse("30"))
                .hasMessageContaining("\"30\": not a duration");
        assertThatThrownBy(() -> SoakTime.parse("-5m"))
                .hasMessage("annotation upshift.io/soak-time \"-5m\": must not be negative");
        assertThatThrownBy(() -> SoakTime.parse("200h"))
                .hasMessage("annotation upshift.io/soak-time \"200h\": longer than 168h0m0s");
    }

    @Test
    void theNodeDoneLastHoldsTheNextUntilItsSoakEnds() {
        SoakTime soak = SoakTime.parse("30s");
        List<PoolNode> nodes =
                List.of(
                        node("a", NEW, NEW, true, NOW.minusSeconds(40)),
                        node("b", NEW, NEW, true, NOW.minusSeconds(10)),
                        node("c", OLD, OLD, true, NOW.minusSeconds(1)), // done, but not on target
                        node("d", OLD, OLD, true, null));
        RolloutHold hold = soak.hold(nodes, NEW, NOW);
        assertThat(hold.reason()).isEqualTo("SoakTime");
        assertThat(hold.until()).isEqualTo(NOW.plusSeconds(20));
        assertThat(hold.message())
                .isEqualTo(
                        "Soaking node b for 30s (upshift.io/soak-time) after its update: the next"
                                + " node starts at 2026-11-22T10:00:20Z");
        assertThat(soak.hold(nodes, NEW, NOW.plusSeconds(20))).isNull(); // the soak is over
        assertThat(soak.hold(nodes, NEW, NOW.plusSeconds(19))).isNotNull();
    }

    @Test
    void aNodeDoneButNotReadyHoldsUntilItIsAndItsSoakStartsThen() {
        SoakTime soak = SoakTime.parse("30s");
        RolloutHold hold =
                soak.hold(List.of(node("a", NEW, NEW, false, NOW.minusSeconds(600))), NEW, NOW);
        assertThat(hold.until()).isNull(); // only the node's becoming ready ends it
        assertThat(hold.message()).startsWith("Node a is done with MachineConfig " + NEW);
        // a node that knows no done time (an upstream daemon's) holds nothing
        assertThat(soak.hold(List.of(node("a", NEW, NEW, true, null)), NEW, NOW)).isNull();
    }

    @Test
    void healthyFromTheLaterOfDoneAndReady() {
        var node =
                new io.fabric8.kubernetes.api.model.NodeBuilder()
                        .withNewMetadata()
                        .withName("a")
                        .endMetadata()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .withLastTransitionTime("2026-11-22T10:00:05Z")
                        .endCondition()
                        .endStatus()
                        .build();
        assertThat(PoolMembers.healthySince(node, "2026-11-22T10:00:00.250Z"))
                .isEqualTo(Instant.parse("2026-11-22T10:00:05Z"));
        assertThat(PoolMembers.healthySince(node, "2026-11-22T10:01:00Z"))
                .isEqualTo(Instant.parse("2026-11-22T10:01:00Z"));
        assertThat(PoolMembers.healthySince(node, "yesterday")).isNull();
        assertThat(PoolMembers.healthySince(node, null)).isNull();
    }
}
