package io.upshift.releases.payload;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.TaskGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real OpenShift 4.19 payload (the shared fixture), loaded, filtered and ordered for the
 * high-availability profile, the Default feature set and every capability: the verdicts, the
 * applied documents and the task graph must be the cluster-version operator's own (its outputs are
 * in the fixture's {@code expected/}).
 */
class OpenShiftPayloadConformanceTest {

    private static final Path FIXTURE =
            Path.of(
                    System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                    "openshift-payload-4.19");
    private static Payload payload;
    private static List<PayloadVerdicts.Row> verdicts;

    @BeforeAll
    static void load() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(FIXTURE), "shared fixtures not present");
        payload =
                PayloadLoader.load(
                        FIXTURE,
                        "quay.io/openshift-release-dev/ocp-release@sha256:" + "0".repeat(64),
                        LoadRules.defaults(),
                        w -> {});
        verdicts =
                PayloadVerdicts.of(
                        payload,
                        InclusionRules.none()
                                .withCapabilities(
                                        CapabilitySets.of(
                                                "vCurrent",
                                                List.of(),
                                                List.of("Ingress"),
                                                Set.of())));
    }

    /** The expected file's lines, comments left out. */
    private static List<String> expected(String name) throws IOException {
        return Files.readAllLines(FIXTURE.resolve("expected").resolve(name)).stream()
                .filter(l -> !l.startsWith("#"))
                .toList();
    }

    @Test
    void everyDocumentGetsTheOperatorsVerdictAndReason() throws IOException {
        List<String> actual = new ArrayList<>();
        for (PayloadVerdicts.Row r : verdicts) {
            Manifest m = r.manifest();
            String verdict =
                    switch (r.verdict()) {
                        case INCLUDED -> "included";
                        case SKIPPED -> "skipped-at-apply";
                        case EXCLUDED -> "excluded-at-load";
                    };
            actual.add(
                    String.join(
                            "\t",
                            verdict,
                            r.index() == 0 ? "-" : String.valueOf(r.index()),
                            m.file(),
                            m.apiVersion(),
                            m.kind(),
                            m.namespace(),
                            m.name(),
                            r.verdict() == PayloadVerdicts.Verdict.INCLUDED ? "" : r.reason()));
        }
        assertThat(actual).containsExactlyElementsOf(expected("ha-vcurrent-default.all.txt"));
    }

    @Test
    void theAppliedDocumentsAreTheOperatorsInPayloadOrder() throws IOException {
        List<String> actual =
                verdicts.stream()
                        .filter(r -> r.verdict() == PayloadVerdicts.Verdict.INCLUDED)
                        .map(
                                r ->
                                        String.join(
                                                "\t",
                                                String.valueOf(r.index()),
                                                r.manifest().file(),
                                                r.manifest().apiVersion(),
                                                r.manifest().kind(),
                                                r.manifest().namespace(),
                                                r.manifest().name()))
                        .toList();
        assertThat(actual).containsExactlyElementsOf(expected("ha-vcurrent-default.included.txt"));
    }

    @Test
    void theUpdatingGraphHasTheOperatorsNodesEdgesAndOrder() throws IOException {
        TaskGraph graph = TaskGraph.build(payload.manifests(), Mode.UPDATING, 0);
        List<String> actual = new ArrayList<>();
        int[] depth = new int[graph.nodes().size()];
        for (TaskGraph.Node n : graph.nodes()) {
            for (int from : n.in()) depth[n.id()] = Math.max(depth[n.id()], depth[from] + 1);
        }
        for (TaskGraph.Node n : graph.nodes()) {
            actual.add(
                    n.id()
                            + "\tdepth="
                            + depth[n.id()]
                            + "\tin="
                            + ids(n.in())
                            + "\tout="
                            + ids(n.out())
                            + "\ttasks="
                            + n.tasks().size()
                            + "\t"
                            + n.tasks().stream()
                                    .map(t -> t.index() + ":" + t.manifest().file())
                                    .collect(Collectors.joining(", ")));
        }
        assertThat(actual)
                .containsExactlyElementsOf(expected("ha-vcurrent-default.graph-updating.txt"));
    }

    private static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
    }
}
