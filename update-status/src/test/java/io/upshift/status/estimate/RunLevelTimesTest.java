package io.upshift.status.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunLevelTimesTest {
    static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");

    private static Manifest manifest(String file, String kind, String name) {
        ObjectNode o = Mappers.JSON.createObjectNode().put("apiVersion", "v1").put("kind", kind);
        o.putObject("metadata").put("name", name);
        return Manifest.of(file, 1, o);
    }

    @Test
    void theRunLevelsOfAPayloadInOrderWithTheirTasksAndOperators() {
        List<RunLevelTimes.Level> levels =
                RunLevelTimes.levelsOf(
                        List.of(
                                manifest(
                                        "0000_00_cluster-version-operator_03_deployment.yaml",
                                        "Deployment",
                                        "cvo"),
                                manifest(
                                        "0000_00_cluster-version-operator_04_verification.yaml",
                                        "ConfigMap",
                                        "v"),
                                manifest(
                                        "0000_10_etcd_01_deployment.yaml",
                                        "Deployment",
                                        "etcd-operator"),
                                manifest(
                                        "0000_10_etcd_09_clusteroperator.yaml",
                                        "ClusterOperator",
                                        "etcd"),
                                manifest(
                                        "0000_10_network_09_clusteroperator.yaml",
                                        "ClusterOperator",
                                        "network"),
                                manifest(
                                        "0000_55_machine-config_09_clusteroperator.yaml",
                                        "ClusterOperator",
                                        "machine-config")));
        assertThat(levels)
                .containsExactly(
                        new RunLevelTimes.Level("00", 2, List.of(), null, null),
                        new RunLevelTimes.Level("10", 3, List.of("etcd", "network"), null, null),
                        new RunLevelTimes.Level("55", 1, List.of("machine-config"), null, null));
    }

    @Test
    void aRunLevelStartsAndIsDoneOnceAndTheAnnotationReadsBackTheSame() {
        RunLevelTimes t =
                RunLevelTimes.plan(
                        "img@b",
                        "1.1.0",
                        List.of(
                                new RunLevelTimes.Level("00", 2, List.of(), null, null),
                                new RunLevelTimes.Level("10", 3, List.of("etcd"), null, null)),
                        null);
        RunLevelTimes started = t.started("00", T0);
        assertThat(started.started("00", T0.plusSeconds(5))).isSameAs(started);
        RunLevelTimes done = started.done("00", T0.plusMillis(2500)).done("00", T0.plusSeconds(9));
        assertThat(done.levels().get(0))
                .isEqualTo(
                        new RunLevelTimes.Level(
                                "00",
                                2,
                                List.of(),
                                "2026-11-20T10:00:00Z",
                                "2026-11-20T10:00:02.500Z"));
        assertThat(done.complete()).isFalse();
        assertThat(RunLevelTimes.fromAnnotation(done.toAnnotation())).isEqualTo(done);
        assertThat(done.toAnnotation())
                .isEqualTo(
                        "{\"image\":\"img@b\",\"version\":\"1.1.0\",\"levels\":[{\"runLevel\":\"00\",\"tasks\":2,"
                            + "\"operators\":[],\"startedAt\":\"2026-11-20T10:00:00Z\",\"doneAt\":\"2026-11-20T10:00:02.500Z\"},"
                            + "{\"runLevel\":\"10\",\"tasks\":3,\"operators\":[\"etcd\"]}]}");
        assertThat(RunLevelTimes.fromAnnotation("{not json")).isNull();
        assertThat(RunLevelTimes.fromAnnotation(null)).isNull();
    }

    @Test
    void
            aControllerTakingOverKeepsTheTimesOfTheSameUpdateAndANewUpdateKeepsTheLastCompleteOneAsPrevious() {
        List<RunLevelTimes.Level> plan =
                List.of(
                        new RunLevelTimes.Level("00", 1, List.of(), null, null),
                        new RunLevelTimes.Level("10", 1, List.of("etcd"), null, null));
        RunLevelTimes first =
                RunLevelTimes.plan("img@b", "1.1.0", plan, null)
                        .started("00", T0)
                        .done("00", T0.plusSeconds(3));
        RunLevelTimes resumed = RunLevelTimes.plan("img@b", "1.1.0", plan, first);
        assertThat(resumed.levels().get(0).doneAt()).isEqualTo("2026-11-20T10:00:03Z");
        // a controller taking over while 10 runs: 10 was interrupted, and says so once done
        RunLevelTimes takenOver =
                first.started("10", T0.plusSeconds(3)).takenOver().done("10", T0.plusSeconds(20));
        assertThat(takenOver.levels().get(1).interrupted()).isTrue();
        assertThat(takenOver.levels().get(0).interrupted()).isNull();
        assertThat(takenOver.toAnnotation())
                .contains("\"doneAt\":\"2026-11-20T10:00:20Z\",\"interrupted\":true}");

        RunLevelTimes incomplete = RunLevelTimes.plan("img@c", "1.2.0", plan, first);
        assertThat(incomplete.previous()).isNull();
        RunLevelTimes complete =
                first.started("10", T0.plusSeconds(3)).done("10", T0.plusSeconds(10));
        RunLevelTimes next = RunLevelTimes.plan("img@c", "1.2.0", plan, complete);
        assertThat(next.previous())
                .isEqualTo(new RunLevelTimes.Previous("1.1.0", Map.of("00", 3.0, "10", 7.0)));
        assertThat(next.levels()).allSatisfy(l -> assertThat(l.startedAt()).isNull());
        // the update after that still has it, while its own is incomplete
        assertThat(RunLevelTimes.plan("img@d", "1.3.0", plan, next).previous())
                .isEqualTo(next.previous());
    }
}
