package io.upshift.graph.updates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.base.version.SemVer;
import io.upshift.graph.model.ConditionalEdges;
import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphJson;
import io.upshift.graph.model.GraphNode;
import io.upshift.graph.model.Risk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class GraphUpdatesTest {

    static GraphNode node(String v) {
        return new GraphNode(
                v,
                "registry.example/release@sha256:"
                        + String.format("%064d", Math.abs((long) v.hashCode())),
                Map.of(
                        "url",
                        "https://example.com/" + v,
                        GraphNode.CHANNELS,
                        "stable-1.1,fast-1.1"));
    }

    static Risk risk(String name, String... types) {
        return new Risk(
                "https://example.com/" + name,
                name,
                name + " may hurt.",
                Arrays.stream(types)
                        .map(t -> new Risk.MatchingRule(t, t.equals("PromQL") ? "up" : null))
                        .toList());
    }

    @Test
    void availableAndConditionalTargets() throws Exception {
        List<GraphNode> nodes =
                List.of(
                        node("1.0.0"),
                        node("1.0.1"),
                        node("1.1.0"),
                        node("1.1.1"),
                        node("1.1.2"),
                        node("1.1.3"));
        Graph g =
                Graph.of(
                        nodes,
                        List.of(new int[] {0, 1}, new int[] {0, 2}, new int[] {1, 2}),
                        List.of(
                                new ConditionalEdges(
                                        List.of(
                                                new ConditionalEdges.Edge("1.0.0", "1.1.0"),
                                                new ConditionalEdges.Edge("1.0.1", "1.1.0")),
                                        List.of(risk("SlowDisks", "PromQL", "Always"))),
                                new ConditionalEdges(
                                        List.of(new ConditionalEdges.Edge("1.0.0", "1.1.1")),
                                        List.of(risk("Unknown", "FutureRule"))),
                                new ConditionalEdges(
                                        List.of(new ConditionalEdges.Edge("1.0.0", "1.1.2")),
                                        List.of(risk("A", "Always"))),
                                new ConditionalEdges(
                                        List.of(new ConditionalEdges.Edge("1.0.0", "1.1.2")),
                                        List.of(risk("B", "Always"))),
                                new ConditionalEdges(
                                        List.of(new ConditionalEdges.Edge("1.0.0", "1.1.3")),
                                        List.of(risk("Mixed", "FutureRule", "Always")))));
        List<String> warnings = new ArrayList<>();
        RetrievedUpdates u =
                GraphUpdates.compute(g, SemVer.parse("1.0.0"), "stable-1.1", warnings::add);
        assertThat(u.current().version()).isEqualTo("1.0.0");
        assertThat(u.current().channels()).containsExactly("fast-1.1", "stable-1.1");
        // 1.1.0 is both: kept as conditional only
        assertThat(u.available()).extracting(Target::version).containsExactly("1.0.1");
        assertThat(u.available().get(0).url()).isEqualTo("https://example.com/1.0.1");
        // 1.1.1's only rule is unknown: dropped; 1.1.2 is in two entries: dropped; 1.1.3 keeps its
        // known rule
        assertThat(u.conditional())
                .extracting(c -> c.release().version())
                .containsExactly("1.1.0", "1.1.3");
        assertThat(u.conditional().get(1).risks().get(0).matchingRules())
                .extracting(Risk.MatchingRule::type)
                .containsExactly("Always");
        assertThat(warnings)
                .anyMatch(w -> w.contains("1.1.2; dropping them all"))
                .anyMatch(w -> w.contains("risk Unknown has no matching rule left"));
    }

    /**
     * A cluster of one architecture asking the multi-architecture graph: its own version's node is
     * the only update, whatever the edges and conditional edges (upstream's GetUpdates).
     */
    @Test
    void aClusterMovingToMultiIsOfferedItsOwnVersionAlone() throws Exception {
        GraphNode multi =
                new GraphNode(
                        "1.0.0",
                        "registry.example/release@sha256:" + "1".repeat(64),
                        Map.of("release.openshift.io/architecture", "multi"));
        Graph g =
                Graph.of(
                        List.of(multi, node("1.0.1")),
                        List.of(new int[] {0, 1}),
                        List.of(
                                new ConditionalEdges(
                                        List.of(new ConditionalEdges.Edge("1.0.0", "1.0.1")),
                                        List.of(risk("A", "Always")))));
        RetrievedUpdates u =
                GraphUpdates.compute(g, SemVer.parse("1.0.0"), "stable-1.0", true, w -> {});
        assertThat(u.available()).containsExactly(Target.of(multi));
        assertThat(u.available().get(0).architecture()).isEqualTo("Multi");
        assertThat(u.conditional()).isEmpty();
        // a cluster already multi follows the edges
        assertThat(
                        GraphUpdates.compute(g, SemVer.parse("1.0.0"), "stable-1.0", false, w -> {})
                                .conditional())
                .extracting(c -> c.release().version())
                .containsExactly("1.0.1");
    }

    @Test
    void aVersionOutsideTheChannelIsReported() throws Exception {
        Graph g = Graph.of(List.of(node("1.0.0")), List.of(), List.of());
        assertThatThrownBy(
                        () -> GraphUpdates.compute(g, SemVer.parse("2.0.0"), "stable-2.0", w -> {}))
                .isInstanceOfSatisfying(
                        UpdatesException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo("VersionNotFound");
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "currently reconciling cluster version 2.0.0 not found"
                                                    + " in the \"stable-2.0\" channel");
                        });
    }

    /**
     * On a real served graph: 4.7.2 has conditional updates to 4.7.4 (VSphereNodeNameChanges) and
     * plain ones.
     */
    @Test
    void referenceGraph() throws Exception {
        Path f =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "cincinnati-graphs",
                        "134475077ed4eeaedf3c339f12915b9cdaf7d194_stable-4.7_amd64_v1.json");
        Assumptions.assumeTrue(Files.exists(f), "shared fixtures not present");
        Graph g = GraphJson.read(Files.readAllBytes(f), 64 << 20);
        RetrievedUpdates u = GraphUpdates.compute(g, SemVer.parse("4.7.2"), "stable-4.7", w -> {});
        assertThat(u.conditional()).extracting(c -> c.release().version()).contains("4.7.4");
        assertThat(u.conditional())
                .allMatch(c -> c.risks().get(0).name().equals("VSphereNodeNameChanges"));
        assertThat(u.available()).extracting(Target::version).isNotEmpty().doesNotContain("4.7.4");
    }
}
