package io.upshift.graph.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our own graph data and releases: building, serving and the refusals of bad input. */
class GraphInputTest {

    @TempDir Path dir;

    static ReleaseEntry release(String version, String... previous) {
        return new ReleaseEntry(
                version,
                List.of(previous),
                List.of(),
                Map.of("url", "https://example.com/" + version),
                "amd64",
                "registry.example/release@sha256:"
                        + String.format("%064d", Math.abs((long) version.hashCode())));
    }

    Path graphData(String channelYaml, String... blocks) throws Exception {
        Files.writeString(dir.resolve("version"), "1.1.0\n");
        Files.createDirectories(dir.resolve("channels"));
        Files.createDirectories(dir.resolve("blocked-edges"));
        Files.writeString(dir.resolve("channels/stable-1.1.yaml"), channelYaml);
        for (int i = 0; i < blocks.length; i++)
            Files.writeString(dir.resolve("blocked-edges/b" + i + ".yaml"), blocks[i]);
        return dir;
    }

    @Test
    void channelsBlocksAndRisks() throws Exception {
        Path data =
                graphData(
                        "name: stable-1.1\nversions: [1.0.0, 1.0.1, 1.1.0, 1.1.1]\n",
                        "to: 1.1.1\nfrom: 1[.]0[.]0\n",
                        "to: 1.1.0\n"
                                + "from: 1[.]0[.].*\n"
                                + "url: https://example.com/risk\n"
                                + "name: SlowDisks\n"
                                + "message: Disks may be slow.\n"
                                + "matchingRules:\n"
                                + "- type: PromQL\n"
                                + "  promql:\n"
                                + "    promql: 'disk_slow{_id=\"\"} or 0 * up'\n");
        List<ReleaseEntry> releases =
                List.of(
                        release("1.0.0"),
                        release("1.0.1", "1.0.0"),
                        release("1.1.0", "1.0.0", "1.0.1"),
                        release("1.1.1", "1.0.0", "1.0.1", "1.1.0"),
                        release("1.2.0", "1.1.1"));
        Graph g =
                GraphBuilder.serve(
                        GraphBuilder.build(releases, GraphData.load(data)), "stable-1.1", "amd64");
        assertThat(g.nodes())
                .extracting(GraphNode::version)
                .containsExactly("1.0.0", "1.0.1", "1.1.0", "1.1.1");
        assertThat(g.nodes().get(0).metadata())
                .containsEntry(GraphNode.CHANNELS, "stable-1.1")
                .containsEntry(
                        GraphNode.MANIFESTREF,
                        "sha256:" + String.format("%064d", Math.abs((long) "1.0.0".hashCode())));
        assertThat(CincinnatiConformanceTest.edges(g))
                .containsExactlyInAnyOrder("1.0.0 -> 1.0.1", "1.0.1 -> 1.1.1", "1.1.0 -> 1.1.1");
        assertThat(CincinnatiConformanceTest.conditional(g))
                .hasSize(2)
                .allMatch(s -> s.contains("-> 1.1.0") && s.contains("SlowDisks"));
        assertThat(GraphJson.read(GraphJson.write(g), 1 << 20))
                .satisfies(
                        back -> {
                            assertThat(CincinnatiConformanceTest.edges(back))
                                    .isEqualTo(CincinnatiConformanceTest.edges(g));
                            assertThat(
                                            back.conditionalEdges()
                                                    .get(0)
                                                    .risks()
                                                    .get(0)
                                                    .matchingRules()
                                                    .get(0)
                                                    .promql())
                                    .isEqualTo("disk_slow{_id=\"\"} or 0 * up");
                        });
    }

    @Test
    void badGraphDataIsNamedByFile() throws Exception {
        graphData("name: stable-1.1\nversions: [1.0.0, not-a-version]\n");
        assertThatThrownBy(() -> GraphData.load(dir))
                .isInstanceOfSatisfying(
                        GraphException.class,
                        e -> {
                            assertThat(e.kind()).isEqualTo("invalid_graph_data");
                            assertThat(e.getMessage())
                                    .contains(
                                            "stable-1.1.yaml: versions \"not-a-version\" is not a"
                                                    + " semantic version");
                        });
        Files.writeString(
                dir.resolve("channels/stable-1.1.yaml"), "name: stable-1.1\nversions: [1.0.0\n");
        assertThatThrownBy(() -> GraphData.load(dir))
                .hasMessageContaining("stable-1.1.yaml: invalid YAML");
        Files.writeString(
                dir.resolve("channels/stable-1.1.yaml"), "name: stable-1.1\nversions: [1.0.0]\n");
        Files.writeString(dir.resolve("blocked-edges/bad.yaml"), "to: 1.0.0\nfrom: '4[.'\n");
        assertThatThrownBy(() -> GraphData.load(dir))
                .hasMessageContaining("bad.yaml: from \"4[.\" is not a regular expression");
        Files.delete(dir.resolve("blocked-edges/bad.yaml"));
        Files.writeString(dir.resolve("version"), "2.0.0");
        assertThatThrownBy(() -> GraphData.load(dir))
                .hasMessageContaining("graph-data schema 2.0.0 is not supported");
    }

    @Test
    void badGraphsAreRefused() {
        assertThatThrownBy(
                        () ->
                                GraphJson.read(
                                        "{\"nodes\":[{\"version\":\"1.0.0\"},{\"version\":\"1.0.0\"}],\"edges\":[]}"
                                                .getBytes(StandardCharsets.UTF_8),
                                        1 << 20))
                .hasMessage("version 1.0.0 appears twice");
        assertThatThrownBy(
                        () ->
                                GraphJson.read(
                                        "{\"nodes\":[{\"version\":\"1.0.0\"}],\"edges\":[[0,3]]}"
                                                .getBytes(StandardCharsets.UTF_8),
                                        1 << 20))
                .hasMessage("edge [0, 3] points outside the 1 nodes");
        assertThatThrownBy(
                        () ->
                                GraphJson.read(
                                        "{\"nodes\":[{\"version\":\"1.0.0\"},{\"version\":\"1.0.1\"}],\"edges\":[[0,1],[1,0]]}"
                                                .getBytes(StandardCharsets.UTF_8),
                                        1 << 20))
                .hasMessageStartingWith("the graph has a cycle through ");
        assertThatThrownBy(() -> GraphJson.read("<html>".getBytes(StandardCharsets.UTF_8), 1 << 20))
                .hasMessageStartingWith("the graph is not JSON");
        assertThatThrownBy(() -> GraphJson.read(new byte[2048], 1024))
                .hasMessageContaining("more than the 1024 accepted");
        assertThatThrownBy(
                        () ->
                                GraphBuilder.build(
                                        List.of(release("1.0.0"), release("1.0.0")),
                                        new GraphData("1.0.0", List.of(), List.of(), Map.of())))
                .hasMessageContaining("listed twice");
        assertThatThrownBy(
                        () ->
                                GraphBuilder.build(
                                        List.of(
                                                release("1.0.0", "1.0.1"),
                                                release("1.0.1", "1.0.0")),
                                        new GraphData("1.0.0", List.of(), List.of(), Map.of())))
                .hasMessageStartingWith("the graph has a cycle through 1.0.");
    }
}
