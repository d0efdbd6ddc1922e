package io.upshift.releases.taskgraph;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.releases.manifest.Manifest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TaskGraphTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One manifest per file name; a name ending in "job" is a batch/v1 Job. */
    static List<Manifest> manifests(String... files) {
        return Arrays.stream(files)
                .map(
                        f -> {
                            ObjectNode o = JSON.createObjectNode();
                            boolean job = f.contains("job");
                            o.put("apiVersion", job ? "batch/v1" : "v1");
                            o.put("kind", job ? "Job" : "ConfigMap");
                            o.putObject("metadata").put("name", f);
                            return Manifest.of(f, 1, o);
                        })
                .toList();
    }

    /** Each node as "in>files" e.g. "0,1>c d" ; spacers as "in>-". */
    static List<String> shape(TaskGraph g) {
        return g.nodes().stream()
                .map(
                        n ->
                                n.in().stream()
                                                .map(String::valueOf)
                                                .collect(Collectors.joining(","))
                                        + ">"
                                        + (n.isSpacer()
                                                ? "-"
                                                : n.tasks().stream()
                                                        .map(
                                                                t ->
                                                                        t.manifest()
                                                                                .file()
                                                                                .replaceAll(
                                                                                        "^0000_|\\.yaml$",
                                                                                        ""))
                                                        .collect(Collectors.joining(" "))))
                .toList();
    }

    @Test
    void updatingRunsComponentsOfARunLevelInParallelAndRunLevelsInSeries() {
        TaskGraph g =
                TaskGraph.build(
                        manifests(
                                "0000_10_a_1.yaml",
                                "0000_10_a_2.yaml",
                                "0000_10_b_1.yaml",
                                "0000_20_c_1.yaml",
                                "0000_20_d-x_1.yaml",
                                "0000_30_e_1.yaml",
                                "0000_40_f_1.yaml"),
                        Mode.UPDATING,
                        0);
        // node 0 is the empty left anchor everything hangs from; run-level 10: a and b in parallel;
        // 20: c and d behind
        // a spacer (2 x 2 would need 4 edges); 30 and 40 have one component each and stay one
        // serial node.
        assertThat(shape(g))
                .containsExactly(
                        ">-",
                        "0>10_a_1 10_a_2",
                        "0>10_b_1",
                        "1,2>-",
                        "3>20_c_1",
                        "3>20_d-x_1",
                        "4,5>30_e_1 40_f_1");
        assertThat(g.roots()).containsExactly(0);
        assertThat(g.taskCount()).isEqualTo(7);
        assertThat(g.nodes().get(3).out()).containsExactly(4, 5);
        assertThat(Mode.UPDATING.defaultWorkers(g)).isEqualTo(16);
    }

    @Test
    void filesWithoutARunLevelStaySerial() {
        TaskGraph g =
                TaskGraph.build(
                        manifests(
                                "a.yaml",
                                "b.yaml",
                                "0000_10_a_1.yaml",
                                "0000_10_b_1.yaml",
                                "z.yaml"),
                        Mode.UPDATING,
                        0);
        assertThat(shape(g)).containsExactly(">-", "0>a b", "1>10_a_1", "1>10_b_1", "2,3>z");
    }

    @Test
    void everyJobIsItsOwnNodeWithEverythingBeforeAheadAndEverythingAfterBehind() {
        TaskGraph g =
                TaskGraph.build(
                        manifests(
                                "0000_10_a_1.yaml",
                                "0000_10_b_1.yaml",
                                "0000_20_c_job.yaml",
                                "0000_20_c_2.yaml",
                                "0000_20_d_1.yaml"),
                        Mode.UPDATING,
                        0);
        // the Job keeps node 0; what came before it is node 1 (parallelized behind it as left
        // anchor, with node 5 as
        // right anchor leading to the Job), what comes after it node 2 (the left anchor of c and
        // d): upstream's numbering
        assertThat(shape(g))
                .containsExactly(
                        "5>20_c_job",
                        ">-",
                        "0>-",
                        "1>10_a_1",
                        "1>10_b_1",
                        "3,4>-",
                        "2>20_c_2",
                        "2>20_d_1");
        assertThat(g.roots()).containsExactly(1);
        TaskGraph init =
                TaskGraph.build(
                        manifests("0000_10_a_1.yaml", "0000_10_b_1.yaml", "0000_20_c_job.yaml"),
                        Mode.INITIALIZING,
                        0);
        assertThat(shape(init))
                .containsExactly("4>20_c_job", ">-", "1>10_a_1", "1>10_b_1", "2,3>-");
    }

    @Test
    void initializingFlattensEveryComponentIntoOneParallelStep() {
        TaskGraph g =
                TaskGraph.build(
                        manifests(
                                "0000_10_a_1.yaml",
                                "0000_10_b_1.yaml",
                                "0000_20_c_1.yaml",
                                "0000_20_c_2.yaml",
                                "0000_20_d_1.yaml"),
                        Mode.INITIALIZING,
                        0);
        assertThat(shape(g))
                .containsExactly(">-", "0>10_a_1", "0>10_b_1", "0>20_c_1 20_c_2", "0>20_d_1");
        assertThat(Mode.INITIALIZING.defaultWorkers(g)).isEqualTo(5);
    }

    @Test
    void flatteningKeepsEveryStretchOfOneComponentApartWhereUpdatingJoinsThem() {
        String[] files = {
            "a.yaml",
            "b.yaml",
            "0000_10_x_1.yaml",
            "0000_10_x_2.yaml",
            "0000_20_x_1.yaml",
            "0000_30_y_1.yaml"
        };
        // upstream's FlattenByNumberAndComponent: a group per run-level and component, a file
        // without one alone
        assertThat(shape(TaskGraph.build(manifests(files), Mode.INITIALIZING, 0)))
                .containsExactly(">-", "0>a", "0>b", "0>10_x_1 10_x_2", "0>20_x_1", "0>30_y_1");
        // ByNumberAndComponent: single-component stretches run as one serial node
        assertThat(shape(TaskGraph.build(manifests(files), Mode.UPDATING, 0)))
                .containsExactly(">a b 10_x_1 10_x_2 20_x_1 30_y_1");
    }

    @Test
    void reconcilingPermutesPerEpochAndShiftsPerAttempt() {
        String[] files =
                IntStream.range(0, 20)
                        .mapToObj(i -> "0000_10_c" + i + "_x.yaml")
                        .toArray(String[]::new);
        List<String> a0 = shape(TaskGraph.build(manifests(files), Mode.RECONCILING, 0));
        List<String> a0again = shape(TaskGraph.build(manifests(files), Mode.RECONCILING, 0));
        List<String> a1 = shape(TaskGraph.build(manifests(files), Mode.RECONCILING, 1));
        List<String> a8 = shape(TaskGraph.build(manifests(files), Mode.RECONCILING, 8));
        assertThat(a0).isEqualTo(a0again).hasSize(21).startsWith(">-");
        assertThat(a0.subList(1, 21)).allMatch(s -> s.startsWith("0>"));
        assertThat(a0).containsExactlyInAnyOrderElementsOf(a8).isNotEqualTo(a8);
        // Attempt 1 is attempt 0 rotated by 20/8 = 2 places.
        List<String> rotated = new ArrayList<>(a0.subList(0, 1));
        rotated.addAll(a0.subList(3, 21));
        rotated.addAll(a0.subList(1, 3));
        assertThat(a1).isEqualTo(rotated);
        assertThat(a0).isNotEqualTo(shape(TaskGraph.build(manifests(files), Mode.INITIALIZING, 0)));
    }

    @Test
    void textAndDotNameEveryManifestAndEdge() {
        TaskGraph g =
                TaskGraph.build(
                        manifests("0000_10_a_1.yaml", "0000_10_b_1.yaml", "0000_20_c_1.yaml"),
                        Mode.UPDATING,
                        0);
        String text = GraphText.text(g, "release 1.0.0");
        assertThat(text)
                .startsWith(
                        "Updating graph of release 1.0.0: 3 manifests in 3 nodes (1 spacers), 16"
                                + " workers\n")
                .contains(
                        "node 3 after 1, 2: 1 manifest\n"
                                + "     3  0000_20_c_1.yaml  ConfigMap 0000_20_c_1.yaml\n");
        assertThat(GraphText.dot(g))
                .contains("  1 -> 3;\n  2 -> 3;\n")
                .contains(
                        "3 [ label=\"0000_20_c_1.yaml ConfigMap 0000_20_c_1.yaml\" shape=\"box\""
                                + " ];");
    }
}
