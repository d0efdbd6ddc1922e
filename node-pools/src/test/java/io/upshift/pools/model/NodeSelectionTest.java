package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeSelectionTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static PoolNode node(
            String name, String desired, String state, boolean ready, String zone, int ageDays) {
        return new PoolNode(
                name,
                "old",
                desired,
                state,
                "",
                ready,
                zone,
                T0.minusSeconds(86400L * ageDays),
                false);
    }

    @Test
    void maxUnavailableIsANumberOrAPercentageRoundedDownAtLeastOne() {
        assertThat(MaxUnavailable.resolve(null, 10)).isEqualTo(1);
        assertThat(MaxUnavailable.resolve(0, 10)).isEqualTo(1);
        assertThat(MaxUnavailable.resolve(3, 10)).isEqualTo(3);
        assertThat(MaxUnavailable.resolve("25%", 10)).isEqualTo(2);
        assertThat(MaxUnavailable.resolve("5%", 10)).isEqualTo(1);
        assertThat(MaxUnavailable.resolve("10%", 1000)).isEqualTo(100);
        assertThatThrownBy(() -> MaxUnavailable.resolve("lots", 10))
                .hasMessageContaining("\"lots\" is neither a number of nodes nor a percentage");
        assertThatThrownBy(() -> MaxUnavailable.resolve("150%", 10)).hasMessageContaining("150%");
    }

    @Test
    void picksByZoneThenAgeWithinCapacity() {
        List<PoolNode> nodes =
                new ArrayList<>(
                        List.of(
                                node("a", "old", "Done", true, "zone-b", 5),
                                node("b", "old", "Done", true, "zone-a", 1),
                                node("c", "old", "Done", true, "zone-a", 9),
                                node("d", "old", "Done", true, "", 30),
                                node("e", "old", "Done", true, "zone-a", 3)));
        assertThat(NodeSelection.pick(nodes, "new", 2, false))
                .extracting(PoolNode::name)
                .containsExactly("c", "e");
        assertThat(NodeSelection.pick(nodes, "new", 5, false))
                .extracting(PoolNode::name)
                .containsExactly("c", "e", "b", "a", "d");
        assertThat(NodeSelection.pick(nodes, "new", 5, true)).isEmpty();
    }

    @Test
    void unavailableAndFailingNodesUseUpCapacity() {
        List<PoolNode> nodes =
                List.of(
                        node("busy", "new", "Working", true, "z", 1),
                        node("notready", "old", "Done", false, "z", 1),
                        node("next", "old", "Done", true, "z", 2),
                        node("later", "old", "Done", true, "z", 1));
        assertThat(NodeSelection.pick(nodes, "new", 2, false)).isEmpty();
        assertThat(NodeSelection.pick(nodes, "new", 3, false))
                .extracting(PoolNode::name)
                .containsExactly("next");
        List<PoolNode> failing =
                List.of(
                        node("stuck", "new", "Degraded", true, "z", 1),
                        node("x", "old", "Done", true, "z", 1));
        assertThat(NodeSelection.pick(failing, "new", 1, false)).isEmpty();
    }

    @Test
    void theNodeRunningTheControllerGoesLast() {
        PoolNode self =
                new PoolNode(
                        "self",
                        "old",
                        "old",
                        "Done",
                        "",
                        true,
                        "zone-a",
                        T0.minusSeconds(999_999),
                        true);
        List<PoolNode> nodes =
                List.of(
                        self,
                        node("m1", "old", "Done", true, "zone-b", 1),
                        node("m2", "old", "Done", true, "zone-c", 1));
        assertThat(NodeSelection.pick(nodes, "new", 1, false))
                .extracting(PoolNode::name)
                .containsExactly("m1");
        assertThat(NodeSelection.pick(nodes, "new", 3, false))
                .extracting(PoolNode::name)
                .containsExactly("m1", "m2", "self");
    }
}
