package io.upshift.graph.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conformance with the reference graph service: fed the releases of each shared served graph (its
 * nodes, with their edges and conditional edges as {@code previous}) and the shared graph data, the
 * builder serves the same channel graph: same nodes and metadata, edges and conditional edges,
 * order ignored.
 */
class CincinnatiConformanceTest {

    static Path fixtures() {
        return Path.of(System.getProperty("upshift.fixtures", "../../shared/fixtures"));
    }

    static Stream<Arguments> graphs() throws IOException {
        Path dir = fixtures().resolve("cincinnati-graphs");
        if (!Files.isDirectory(dir)) return Stream.of(Arguments.of("(fixtures absent)", null));
        try (Stream<Path> files = Files.list(dir)) {
            return files
                    .filter(p -> p.toString().endsWith("_v1.json"))
                    .sorted()
                    .map(p -> Arguments.of(p.getFileName().toString(), p))
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void servesTheSameGraph(String name, Path file) throws Exception {
        Assumptions.assumeTrue(file != null, "shared fixtures not present");
        String[] parts = name.replace("_v1.json", "").split("_");
        String channel = parts[1], arch = parts[2];
        Graph expected = GraphJson.read(Files.readAllBytes(file), 64 << 20);

        List<ReleaseEntry> releases = releases(expected, arch);
        GraphData data = GraphData.load(fixtures().resolve("graph-data-134475077"));
        Graph actual = GraphBuilder.serve(GraphBuilder.build(releases, data), channel, arch);

        assertThat(nodes(actual)).isEqualTo(nodes(expected));
        assertThat(edges(actual)).isEqualTo(edges(expected));
        assertThat(conditional(actual)).isEqualTo(conditional(expected));
        assertThat(actual.nodes()).hasSize(expected.nodes().size());
    }

    /**
     * The releases a served graph was built from: its nodes, with their edges and conditional edges
     * as {@code previous}, their own metadata (not the graph builder's).
     */
    static List<ReleaseEntry> releases(Graph expected, String arch) {
        Map<String, List<String>> previous = new HashMap<>();
        for (int[] e : expected.edges())
            previous.computeIfAbsent(expected.nodes().get(e[1]).version(), k -> new ArrayList<>())
                    .add(expected.nodes().get(e[0]).version());
        for (ConditionalEdges c : expected.conditionalEdges()) {
            for (ConditionalEdges.Edge e : c.edges())
                previous.computeIfAbsent(e.to(), k -> new ArrayList<>()).add(e.from());
        }
        List<ReleaseEntry> releases = new ArrayList<>();
        for (GraphNode n : expected.nodes()) {
            Map<String, String> own = new LinkedHashMap<>(n.metadata());
            own.keySet().removeIf(k -> k.startsWith("io.openshift.upgrades.graph."));
            releases.add(
                    new ReleaseEntry(
                            n.version(),
                            previous.getOrDefault(n.version(), List.of()),
                            List.of(),
                            own,
                            arch,
                            n.payload()));
        }
        return releases;
    }

    static Map<String, GraphNode> nodes(Graph g) {
        Map<String, GraphNode> out = new HashMap<>();
        g.nodes().forEach(n -> out.put(n.version(), n));
        return out;
    }

    static Set<String> edges(Graph g) {
        Set<String> out = new HashSet<>();
        for (int[] e : g.edges())
            out.add(g.nodes().get(e[0]).version() + " -> " + g.nodes().get(e[1]).version());
        return out;
    }

    static Set<String> conditional(Graph g) {
        Set<String> out = new HashSet<>();
        for (ConditionalEdges c : g.conditionalEdges()) {
            for (ConditionalEdges.Edge e : c.edges())
                out.add(e.from() + " -> " + e.to() + " " + c.risks());
        }
        return out;
    }
}
