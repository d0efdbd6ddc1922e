package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.Task;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run-level clock as passes report tasks: a run-level is done once one pass did all its tasks.
 */
class RunLevelClockTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-20T10:00:00Z"));

    private static Task task(int index, String file, String kind) {
        ObjectNode o = Mappers.JSON.createObjectNode().put("apiVersion", "v1").put("kind", kind);
        o.putObject("metadata").put("name", "n" + index);
        return new Task(index, Manifest.of(file, 1, o));
    }

    @Test
    void runLevelsAreTimedInUpdatingPassesOnlyAndATakeoverKeepsWhatTheClusterHolds() {
        Task a = task(1, "0000_10_x_01.yaml", "ConfigMap"),
                b = task(2, "0000_10_x_09.yaml", "ClusterOperator"),
                c = task(3, "0000_20_y_01.yaml", "ConfigMap");
        Payload payload =
                new Payload(
                        "img@b",
                        new ReleaseMetadata("1.1.0", List.of(), List.of(), Map.of()),
                        new ImageReferences("1.1.0", Map.of(), null),
                        List.of(a.manifest(), b.manifest(), c.manifest()),
                        List.of(),
                        "h",
                        List.of());
        RunLevelClock levels = new RunLevelClock(clock);
        levels.begin(payload, "img@b", Mode.RECONCILING, null);
        levels.started(a);
        assertThat(levels.current()).as("not timed outside updates").isNull();

        levels.begin(payload, "img@b", Mode.UPDATING, null);
        levels.started(a);
        levels.done(a);
        clock.advance(Duration.ofSeconds(2));
        levels.started(b);
        assertThat(levels.current().levels().get(0).doneAt()).isNull();
        // a second pass starts over counting: the first pass did not finish run-level 10
        levels.begin(payload, "img@b", Mode.UPDATING, null);
        clock.advance(Duration.ofSeconds(3));
        levels.started(a);
        levels.done(a);
        levels.started(b);
        levels.done(b);
        RunLevelTimes t = levels.current();
        assertThat(t.levels().get(0).startedAt()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(t.levels().get(0).doneAt()).isEqualTo("2026-11-20T10:00:05Z");

        // a new controller takes over: the cluster's annotation is where it starts from
        RunLevelClock successor = new RunLevelClock(clock);
        successor.begin(
                payload, "img@b", Mode.UPDATING, RunLevelTimes.fromAnnotation(t.toAnnotation()));
        clock.advance(Duration.ofSeconds(1));
        successor.started(c);
        successor.done(c);
        assertThat(successor.current().levels().get(0)).isEqualTo(t.levels().get(0));
        assertThat(successor.current().complete()).isTrue();
        assertThat(successor.current().levels())
                .allSatisfy(l -> assertThat(l.interrupted()).isNull());
    }

    @Test
    void aRunLevelRunningWhenAnotherControllerTakesOverIsMarkedInterrupted() {
        Task a = task(1, "0000_10_x_01.yaml", "ConfigMap"),
                c = task(2, "0000_20_y_01.yaml", "ConfigMap");
        Payload payload =
                new Payload(
                        "img@b",
                        new ReleaseMetadata("1.1.0", List.of(), List.of(), Map.of()),
                        new ImageReferences("1.1.0", Map.of(), null),
                        List.of(a.manifest(), c.manifest()),
                        List.of(),
                        "h",
                        List.of());
        RunLevelClock first = new RunLevelClock(clock);
        first.begin(payload, "img@b", Mode.UPDATING, null);
        first.started(a); // ... and the controller is replaced before it is done
        RunLevelClock successor = new RunLevelClock(clock);
        successor.begin(
                payload,
                "img@b",
                Mode.UPDATING,
                RunLevelTimes.fromAnnotation(first.current().toAnnotation()));
        clock.advance(Duration.ofSeconds(8));
        successor.started(a);
        successor.done(a);
        RunLevelTimes.Level level = successor.current().levels().get(0);
        assertThat(level.interrupted()).isTrue();
        assertThat(level.startedAt()).isEqualTo("2026-11-20T10:00:00Z");
        assertThat(level.doneAt()).isEqualTo("2026-11-20T10:00:08Z");
    }
}
